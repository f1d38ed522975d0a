// SPDX-License-Identifier: GPL-2.0
/* Running an external tool with a deadline and capturing its output. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"
#include "zsbench.h"

/* seconds a tool has to exit after zsbench forwarded SIGINT or SIGTERM */
#define STOP_GRACE	5

int zsb_path_find(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, len, "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return 0;
		path += n;
		if (*path == ':')
			path++;
	}
	return -1;
}

int zsb_in_path(const char *prog)
{
	char buf[4096];

	return !zsb_path_find(prog, buf, sizeof(buf));
}

char *zsb_last_line(char *buf)
{
	size_t n = strlen(buf);
	char *nl;

	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	nl = strrchr(buf, '\n');
	return nl ? nl + 1 : buf;
}

pid_t zsb_spawn(char *const argv[], int in, int out, int err,
		int (*setup)(void *), void *arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		zsb_signals_default();
		if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0) ||
		    (err >= 0 && dup2(err, 2) < 0))
			_exit(126);
		if (setup && setup(arg))
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "zsbench: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

int zsb_tool_run(char *const argv[], int (*child_setup)(void *), void *arg,
		 double timeout, char **out)
{
	return zsb_tool_run_probe(argv, child_setup, arg, timeout, out, NULL);
}

int zsb_tool_run_probe(char *const argv[], int (*child_setup)(void *), void *arg,
		       double timeout, char **out, const struct zsb_tool_probe *probe)
{
	int p[2], status = 0;
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap);
	double start = zsb_now(), deadline = start + timeout;
	int probed = !probe, forwarded = 0;
	pid_t pid;

	*out = NULL;
	if (!buf || pipe2(p, O_CLOEXEC) < 0) {
		free(buf);
		return -1;
	}
	pid = zsb_spawn(argv, -1, p[1], p[1], child_setup, arg);
	if (pid < 0) {
		free(buf);
		return -1;
	}
	close(p[1]);
	for (;;) {
		double now = zsb_now(), left;
		ssize_t n;

		if (zsb_stop_signal() && !forwarded) {
			/* its own process group: the terminal's signal did not reach it */
			kill(-pid, zsb_stop_signal());
			forwarded = 1;
			if (deadline > now + STOP_GRACE)
				deadline = now + STOP_GRACE;
			probed = 1;
		}
		left = deadline - now;

		if (!probed && now >= start + probe->after) {
			probe->fn(pid, probe->ctx);
			probed = 1;
		}
		if (!probed && start + probe->after - now < left)
			left = start + probe->after - now;
		if (deadline - now <= 0) {
			if (!forwarded)
				fprintf(stderr, "\nzsbench: %s did not finish in %.0fs, "
					"killing it\n", argv[0], timeout);
			kill(-pid, SIGKILL);
			break;
		}
		if (zsb_wait(p[0], left + 0.001) <= 0)
			continue;
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				break;
			buf = nb;
		}
		n = read(p[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(p[0]);
	buf[len] = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*out = buf;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
