// SPDX-License-Identifier: GPL-2.0
/*
 * splice_impl switched and restored (on a scratch file standing in for the
 * module parameter), at exit and after SIGINT or SIGTERM; a tool stopped
 * by the signal zsbench received.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"
#include "zsbench.h"
#include "tap.h"

static char param[] = "/tmp/zsb-param.XXXXXX";

static void put(const char *v)
{
	FILE *f = fopen(param, "w");

	fputs(v, f);
	fclose(f);
}

static const char *got(void)
{
	static char buf[32];

	if (zsb_get_module_impl(buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "(unreadable)");
	return buf;
}

/* fn in a child process; its exit status, or -1 */
static int in_child(int (*fn)(void))
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		exit(fn());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/*
 * A command's path: switch, SIGINT (blocked until zsb_wait()), stop,
 * return 128 + signo; atexit restores.
 */
static int switch_then_sigint(void)
{
	zsb_signals_install();
	if (zsb_impl_switch(zsb_impl_find("none")))
		return 1;
	raise(SIGINT);
	if (zsb_stop_signal())
		return 2;
	if (zsb_wait(-1, 5) != -1 || zsb_stop_signal() != SIGINT || strcmp(got(), "none"))
		return 3;
	return 128 + zsb_stop_signal();
}

/* the tool sends zsbench SIGTERM and sleeps; zsbench stops it at once */
static int tool_stopped(void)
{
	char *argv[] = { "sh", "-c", "kill -TERM $PPID; sleep 30", NULL }, *out = NULL;
	double t0 = zsb_now();
	int st;

	zsb_signals_install();
	st = zsb_tool_run(argv, NULL, NULL, 60, &out);
	free(out);
	if (zsb_stop_signal() != SIGTERM)
		return 1;
	if (st != 128 + SIGTERM)
		return 2;
	return zsb_now() - t0 < 4 ? 0 : 3;
}

int main(void)
{
	int st;

	close(mkstemp(param));
	zsb_impl_param_path(param);
	put("copy\n");
	tap_ok(zsb_impl_switch(zsb_impl_find("devzero")) == 0 && !strcmp(got(), "copy"),
	       "devzero: splice_impl untouched");
	st = in_child(switch_then_sigint);
	tap_ok(st == 128 + SIGINT, "SIGINT: the command stops with 130");
	if (st != 128 + SIGINT)
		printf("#   status %d\n", st);
	tap_str(got(), "copy", "SIGINT: splice_impl restored at exit");
	tap_ok(!zsb_impl_switch(zsb_impl_find("zeropage")) && !strcmp(got(), "zeropage") &&
	       !zsb_impl_switch(zsb_impl_find("folio")) && !strcmp(got(), "folio"),
	       "switch, switch again");
	zsb_impl_restore();
	tap_str(got(), "copy", "restore: the value found before the first switch");
	unlink(param);
	tap_ok(zsb_impl_switch(zsb_impl_find("copy")) < 0, "no parameter: an error");
	st = in_child(tool_stopped);
	tap_ok(st == 0, "SIGTERM: forwarded to the tool, which ends at once");
	if (st)
		printf("#   step %d failed\n", st);
	return tap_done();
}
