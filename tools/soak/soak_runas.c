// SPDX-License-Identifier: GPL-2.0
/*
 * soak_runas: run a command as an unprivileged user (busybox's setpriv
 * cannot change uids).  Drops supplementary groups, then gid, then uid,
 * and refuses to go on if root could be regained.
 *
 * Usage: soak_runas UID GID COMMAND [ARGS...]
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: %s UID GID COMMAND [ARGS...]\n", argv[0]);
		return 2;
	}
	uid = strtoul(argv[1], NULL, 10);
	gid = strtoul(argv[2], NULL, 10);
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("soak_runas: dropping privileges");
		return 126;
	}
	if (uid != 0 && (setuid(0) == 0 || geteuid() == 0)) {
		fprintf(stderr, "soak_runas: could regain root\n");
		return 126;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "soak_runas: %s: %s\n", argv[3], strerror(errno));
	return 127;
}
