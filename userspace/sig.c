// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT and SIGTERM: the handler only records the signal.  Once
 * installed, both are blocked in the main thread except inside zsb_wait()
 * (ppoll), so a signal can only arrive where the loops wait and look at
 * zsb_stop_signal() next; they then stop their tools, and the command
 * restores what it changed and exits with 128 + signo.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <string.h>

#include "zsbench.h"

static volatile sig_atomic_t stop_sig, stop_from_tty;
static sigset_t wait_mask;	/* the mask inside zsb_wait() */
static int installed;

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (stop_sig)
		return;
	stop_from_tty = si && si->si_code == SI_KERNEL;
	stop_sig = sig;
}

void zsb_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO;	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sa.sa_mask, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
	installed = 1;
}

int zsb_wait(int fd, double timeout)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	struct timespec ts;

	if (timeout < 0)
		timeout = 0;
	ts.tv_sec = (time_t)timeout;
	ts.tv_nsec = (long)((timeout - (double)ts.tv_sec) * 1e9);
	return ppoll(fd >= 0 ? &pf : NULL, fd >= 0, &ts, installed ? &wait_mask : NULL);
}

int zsb_stop_signal(void)
{
	return stop_sig;
}

int zsb_stop_from_tty(void)
{
	return stop_from_tty;
}

void zsb_signals_block(int block)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void zsb_signals_default(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	zsb_signals_block(0);
}
