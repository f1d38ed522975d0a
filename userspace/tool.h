/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZSB_TOOL_H
#define ZSB_TOOL_H
#include <stddef.h>
#include <sys/types.h>
int zsb_in_path(const char *prog);
/* prog's path in PATH into buf: 0, or -1 when it is in none */
int zsb_path_find(const char *prog, char *buf, size_t len);
/* fork/exec argv with stdout+stderr captured into *out (malloc'd, caller
 * frees); child_setup runs in the child before exec.  Returns the exit
 * status, 126 when child_setup failed, 127 when exec failed, 128+sig. */
int zsb_tool_run(char *const argv[], int (*child_setup)(void *), void *arg,
		 double timeout, char **out);
/* fork and exec argv (PATH searched) in a process group of its own with
 * the default signal dispositions, stdin/stdout/stderr on in/out/err (-1:
 * zsbench's own), after setup(arg) when given.  The child exits 126 when
 * a dup2() or setup fails, 127 (a line on its stderr) when exec fails.
 * Returns the pid, or -1 with errno set. */
pid_t zsb_spawn(char *const argv[], int in, int out, int err,
		int (*setup)(void *), void *arg);
/* the last line of the text in buf, its trailing newlines cut in place */
char *zsb_last_line(char *buf);
/* A look at the running tool: fn(pid, ctx) once, @after seconds in. */
struct zsb_tool_probe {
	double after;
	void (*fn)(int pid, void *ctx);
	void *ctx;
};
/* zsb_tool_run() with an optional probe (NULL: none). */
int zsb_tool_run_probe(char *const argv[], int (*child_setup)(void *), void *arg,
		       double timeout, char **out, const struct zsb_tool_probe *probe);
#endif
