// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate: the signal-heavy half of check-debug's timeout calibration.
 *
 * 20,000 1-byte write+read round trips through a pipe while a 50 us
 * ITIMER_REAL fires a handler installed without SA_RESTART: the shape of
 * zsplice_signal_test's storm (a syscall per byte, a signal delivery every
 * few calls), which a debug kernel slows down far more than the fork, exec
 * and page-fault half of the calibration (guest/calibrate.sh).  Prints
 * "calibrate signal_ms N" with the elapsed CLOCK_MONOTONIC milliseconds.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>

#define ROUNDS		20000
#define STORM_USEC	50

static volatile sig_atomic_t ticks;

static void tick(int sig)
{
	(void)sig;
	ticks++;
}

/* write or read exactly one byte, retrying on EINTR */
static int one_byte(int fd, int out)
{
	char c = 0;
	ssize_t r;

	do {
		r = out ? write(fd, &c, 1) : read(fd, &c, 1);
	} while (r < 0 && errno == EINTR);
	return r == 1 ? 0 : -1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = tick };
	struct itimerval it = {
		.it_interval = { 0, STORM_USEC }, .it_value = { 0, STORM_USEC },
	};
	struct itimerval off = { 0 };
	double t0;
	int p[2], i;

	sigemptyset(&sa.sa_mask);
	if (pipe(p) || sigaction(SIGALRM, &sa, NULL)) {
		perror("calibrate: setup");
		return 2;
	}
	t0 = now_ms();
	if (setitimer(ITIMER_REAL, &it, NULL)) {
		perror("calibrate: setitimer");
		return 2;
	}
	for (i = 0; i < ROUNDS; i++) {
		if (one_byte(p[1], 1) || one_byte(p[0], 0)) {
			fprintf(stderr, "calibrate: pipe round trip %d: %s\n", i,
				strerror(errno));
			return 2;
		}
	}
	setitimer(ITIMER_REAL, &off, NULL);
	printf("calibrate signal_ms %.0f (%d signals)\n", now_ms() - t0, (int)ticks);
	return 0;
}
