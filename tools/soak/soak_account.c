// SPDX-License-Identifier: GPL-2.0
/*
 * soak_account: page accounting of zsplice under load and after it.
 *
 * For copy, zeropage and folio in turn: fill PIPES pipes of 1 MiB from
 * the device, then tee them into as many more and sendfile into unix
 * sockets nobody reads, and check the module's counters against what was
 * put there:
 *   - zeropage_pipe_refs / folio_pipe_refs equal the slots the splices
 *     added (stats splice_<impl>_slots) while only pipes hold buffers, grow
 *     with tee and with socket buffers, and are back to 0 once every pipe
 *     and socket is closed;
 *   - zeropage_pages and folio_folios (pages the module owns, allocated
 *     per CPU on first use) never shrink, stay within one per online CPU,
 *     and zeropage_bytes / folio_bytes match them;
 *   - guest MemAvailable, after dropping caches, is back within
 *     TOL_KB (8 MiB) of where it started, waiting up to SETTLE_S for
 *     freed pages to leave the per-CPU lists.
 * With -s FILE it only saves MemAvailable (caches dropped) as a baseline;
 * with -c FILE it also checks the current MemAvailable against that
 * baseline with the soak tolerance: max(32 MiB, 2% of MemTotal), plus -k KB
 * on a kernel whose sanitizer keeps freed memory by design (guest/baseline.sh
 * passes generic KASAN's quarantine cap, MemTotal/32 + 1 MiB per CPU).
 * Prints TAP.  Needs root and the module loaded.
 */
#include <sys/sendfile.h>
#include <sys/socket.h>

#include "soak.h"

#define PIPE_BYTES	(1024 * 1024)
#define TOL_KB		(8 * 1024)
#define SOAK_TOL_KB	(32 * 1024)
#define MAXPIPES	256
#define SETTLE_S	60

/* kB of free pages waiting in per-CPU lists (every pageset's count). */
static long long pcp_kb(void)
{
	long long kb = zs_zoneinfo_kb(false);

	return kb < 0 ? 0 : kb;
}

/*
 * MemAvailable plus the free pages on per-CPU lists, which it does not
 * count: on 7.x they hold tens of MiB for a long time after big frees.
 */
static long long mem_available_quiet(void)
{
	int i;

	/* settle: drop page cache, dentries and inodes a few times */
	for (i = 0; i < 3; i++) {
		sync();
		zs_write_file("/proc/sys/vm/drop_caches", "3");
		zs_msleep(100);
	}
	return sk_meminfo("MemAvailable") + pcp_kb();
}

static long long mem_available(void)
{
	long long a = mem_available_quiet();

	sk_diag("MemAvailable + per-CPU lists %lld kB, MemFree %lld kB", a, sk_meminfo("MemFree"));
	return a;
}

/*
 * MemAvailable once it is back within @tol kB of @base, or after SETTLE_S
 * seconds.  Pages freed by closing pipes can sit in the per-CPU free lists
 * (which MemAvailable does not count) for 10-30 s on 7.x, for the kernel's
 * own /dev/zero as much as for us; compaction and time drain them.  Pages
 * that are really lost never come back, and the caller's check fails.
 */
static long long mem_available_settled(long long base, long long tol)
{
	long long a = mem_available_quiet();
	int s;

	for (s = 0; s < SETTLE_S && a < base - tol; s++) {
		zs_write_file("/proc/sys/vm/compact_memory", "1");
		zs_msleep(1000);
		a = mem_available_quiet();
	}
	sk_diag("MemAvailable + per-CPU lists %lld kB, MemFree %lld kB after %d s of settling",
		a, sk_meminfo("MemFree"), s);
	return a;
}

static long long refs_of(int impl)
{
	return zs_stat(false, impl == ZSPLICE_IMPL_FOLIO ? "folio_pipe_refs" :
		       "zeropage_pipe_refs");
}

static long long slots_of(int impl)
{
	char key[64];

	snprintf(key, sizeof(key), "splice_%s_slots", zs_impl_names[impl]);
	return zs_stat(false, key);
}

static void run_impl(int impl, int npipes)
{
	static int pa[MAXPIPES][2], pb[MAXPIPES][2], sk[8][2];
	long long slots0 = slots_of(impl), slots, refs_load, refs_tee, refs_sock, refs_end;
	long long refs_other0 = refs_of(impl == ZSPLICE_IMPL_FOLIO ? ZSPLICE_IMPL_ZEROPAGE :
					ZSPLICE_IMPL_FOLIO);
	long long avail0 = sk_meminfo("MemAvailable"), avail_load;
	unsigned long long bytes = 0;
	int fd = zs_open_path_impl(SK_ZERO_DEV, O_RDONLY, impl), i, j;
	bool shares = impl != ZSPLICE_IMPL_COPY;
	ssize_t n;

	if (fd < 0) {
		sk_result(false, "%s: open/ioctl: %s", zs_impl_names[impl], strerror(errno));
		sk_result(false, "%s: references", zs_impl_names[impl]);
		return;
	}
	for (i = 0; i < npipes; i++) {
		if (pipe2(pa[i], O_NONBLOCK | O_CLOEXEC) || pipe2(pb[i], O_NONBLOCK | O_CLOEXEC)) {
			perror("pipe2");
			exit(1);
		}
		fcntl(pa[i][1], F_SETPIPE_SZ, PIPE_BYTES);
		fcntl(pb[i][1], F_SETPIPE_SZ, PIPE_BYTES);
		/* mixed sizes: small ones coalesce into the tail buffer */
		for (j = 0; ; j++) {
			n = splice(fd, NULL, pa[i][1], NULL, j & 1 ? 100 : 300000, SPLICE_F_NONBLOCK);
			if (n <= 0)
				break;
			bytes += n;
		}
	}
	slots = slots_of(impl) - slots0;
	refs_load = refs_of(impl);
	avail_load = sk_meminfo("MemAvailable");
	for (i = 0; i < npipes; i++)
		tee(pa[i][0], pb[i][1], PIPE_BYTES, SPLICE_F_NONBLOCK);
	refs_tee = refs_of(impl);
	for (i = 0; i < 8; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sk[i])) {
			perror("socketpair");
			exit(1);
		}
		sendfile(sk[i][0], fd, NULL, 100000);
	}
	refs_sock = refs_of(impl);
	sk_diag("%s: %llu bytes in %d pipes of 1 MiB, %lld slots; refs %lld, after tee %lld, after sendfile %lld; MemAvailable -%lld kB under load",
		zs_impl_names[impl], bytes, npipes, slots, refs_load, refs_tee, refs_sock,
		avail0 - avail_load);
	if (shares)
		sk_result(refs_load == slots && slots > 0 && refs_tee > refs_load &&
			  refs_sock > refs_tee,
			  "%s: pipe refs = slots added (%lld = %lld), grow with tee (%lld) and socket buffers (%lld)",
			  zs_impl_names[impl], refs_load, slots, refs_tee, refs_sock);
	else
		sk_result(refs_load == 0 && refs_sock == 0 && slots > 0,
			  "copy: fresh pages only, no references on the module's pages (%lld)",
			  refs_sock);
	for (i = 0; i < npipes; i++) {
		close(pa[i][0]);
		close(pa[i][1]);
		close(pb[i][0]);
		close(pb[i][1]);
	}
	for (i = 0; i < 8; i++) {
		close(sk[i][0]);
		close(sk[i][1]);
	}
	close(fd);
	refs_end = sk_pipe_refs_settled();
	sk_result(refs_end == 0 && refs_other0 == 0,
		  "%s: zeropage_pipe_refs + folio_pipe_refs 0 after every pipe and socket closed (%lld)",
		  zs_impl_names[impl], refs_end);
}

int main(int argc, char **argv)
{
	const char *save = NULL, *cmp = NULL;
	long long start, end, pages0, folios0, tol, slack = 0;
	int npipes = 64, opt, impl, ntests;
	FILE *f;

	while ((opt = getopt(argc, argv, "s:c:p:k:")) != -1) {
		switch (opt) {
		case 's':
			save = optarg;
			break;
		case 'c':
			cmp = optarg;
			break;
		case 'p':
			npipes = atoi(optarg);
			break;
		case 'k':
			slack = atoll(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-s FILE | -c FILE [-k KB]] [-p PIPES]\n",
				argv[0]);
			return 2;
		}
	}
	if (npipes < 1 || npipes > MAXPIPES)
		npipes = 64;
	if (save) {
		sk_plan(1);
		start = mem_available();
		f = fopen(save, "we");
		sk_result(f && fprintf(f, "%lld\n", start) > 0 && !fclose(f),
			  "baseline MemAvailable %lld kB saved to %s", start, save);
		return sk_exit();
	}
	ntests = 2 * 3 + 2 + (cmp ? 1 : 0);
	sk_plan(ntests);
	if (!zs_module_loaded()) {
		for (opt = 0; opt < ntests; opt++)
			sk_result(false, "module loaded");
		return 1;
	}
	pages0 = zs_stat(false, "zeropage_pages");
	folios0 = zs_stat(false, "folio_folios");
	start = mem_available();
	for (impl = ZSPLICE_IMPL_COPY; impl < ZSPLICE_IMPL_COUNT; impl++)
		run_impl(impl, npipes);
	{
		/* allocated lazily, per CPU on first use: at most one of each per online CPU */
		long long pages = zs_stat(false, "zeropage_pages");
		long long folios = zs_stat(false, "folio_folios");
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		sk_result(pages >= pages0 && folios >= folios0 && pages >= 1 && folios >= 0 &&
			  pages <= ncpu && folios <= ncpu &&
			  zs_stat(false, "zeropage_bytes") == pages * ZS_PAGE &&
			  zs_stat(false, "folio_bytes") == folios * zs_stat(false, "folio_size"),
			  "module-owned pages: %lld -> %lld zero pages, %lld -> %lld zero folios of %lld bytes (%ld CPUs online), bytes consistent",
			  pages0, pages, folios0, folios, zs_stat(false, "folio_size"), ncpu);
	}
	end = mem_available_settled(start, TOL_KB);
	sk_result(end >= start - TOL_KB,
		  "MemAvailable back within %d kB of the start, waiting at most %d s (%lld -> %lld kB, %+lld)",
		  TOL_KB, SETTLE_S, start, end, end - start);
	if (cmp) {
		long long base = -1, total = sk_meminfo("MemTotal");

		f = fopen(cmp, "re");
		if (f) {
			if (fscanf(f, "%lld", &base) != 1)
				base = -1;
			fclose(f);
		}
		tol = total / 50 > SOAK_TOL_KB ? total / 50 : SOAK_TOL_KB;
		sk_result(base > 0 && end >= base - tol - slack,
			  "MemAvailable after the whole soak within %lld kB (max(32 MiB, 2%% MemTotal) + %lld kB sanitizer slack) of its start (%lld -> %lld kB, %+lld)",
			  tol + slack, slack, base, end, end - base);
	}
	return sk_exit();
}
