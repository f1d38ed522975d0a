// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT and SIGTERM: the handler only records the signal.  It is
 * installed without SA_RESTART, so the blocking call the main thread is in
 * returns EINTR; the loops then see zsb_stop_signal(), stop their tools,
 * and the command restores what it changed and exits with 128 + signo.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>

#include "zsbench.h"

static volatile sig_atomic_t stop_sig, stop_from_tty;

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
