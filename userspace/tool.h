/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZSB_TOOL_H
#define ZSB_TOOL_H
#include <stddef.h>
int zsb_in_path(const char *prog);
/* prog's path in PATH into buf: 0, or -1 when it is in none */
int zsb_path_find(const char *prog, char *buf, size_t len);
/* fork/exec argv with stdout+stderr captured into *out (malloc'd, caller
 * frees); child_setup runs in the child before exec.  Returns the exit
 * status, 126 when child_setup failed, 127 when exec failed, 128+sig. */
int zsb_tool_run(char *const argv[], int (*child_setup)(void *), void *arg,
		 double timeout, char **out);
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
