// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the zero pages and zero folios that pipe buffers reference.
 *
 * A set holds one zeroed folio per CPU: order 0 for "zeropage", order
 * folio_order for "folio".  A CPU's folio is allocated by the first splice
 * that runs on it, on that CPU's memory node, so a machine with many
 * possible CPUs pays only for the ones that splice, and splicers on
 * different CPUs never bounce one refcount cache line.  The contents are
 * never written after allocation.  At most one folio per set per CPU that
 * spliced: nr_cpu_ids << folio_order pages in all (2 MiB per CPU at the
 * default order 9).
 *
 * Lifetime: the module holds one reference on every folio; each pipe
 * buffer holds one more and drops it through nosteal_pipe_buf_ops, which
 * lives in the core kernel.  zs_pages_exit() drops only the module's own
 * references, so a folio still referenced by a pipe after rmmod stays
 * allocated, still zero, until its last buffer is released.  When a CPU
 * goes offline its folios are unpublished and the module's references
 * dropped the same way (zs_pages_cpu_dead()); the splice path takes its
 * references with preemption disabled, which the unpublishing waits for
 * (synchronize_rcu()), so a folio is never referenced after its last
 * reference is gone.
 *
 * A folio of ours records its CPU index + 1 in folio->private (the folios
 * are the module's own allocations, never in a page cache), which is how
 * zs_pages_buf_room() recognises a pipe buffer of ours from the page alone:
 * pipe_buffer.private is not looked at, since other producers using
 * nosteal_pipe_buf_ops (skb_splice_bits()) leave it uninitialised.
 */
#include <linux/atomic.h>
#include <linux/cpuhotplug.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/topology.h>
#include "internal.h"

/* After a failed folio allocation, wait this long before trying again. */
#define ZS_RETRY_INTERVAL	HZ

/*
 * A folio's reference count stays below this: pipe buffers are added only
 * while it is lower, so that no number of buffers, tee()s included
 * (try_get_page() refuses a count that wrapped), can overflow it.
 */
#define ZS_FOLIO_REF_MAX	(INT_MAX / 2)

struct zs_page_set {
	const char *name;
	unsigned int order;
	/*
	 * By CPU; NULL until first used and after the CPU went offline.
	 * Read with READ_ONCE() with preemption disabled where a reference
	 * is taken, under cpus_read_lock() where the folio is looked at.
	 */
	struct folio **folios;
	atomic_t nr_folios;
	u64 retry_at;			/* jiffies_64; order > 0 only */
};

static struct zs_page_set zs_sets[ZS_NR_SETS] = {
	[ZS_SET_PAGE]	= { .name = "zeropage" },
	[ZS_SET_FOLIO]	= { .name = "folio" },
};

static atomic_long_t zs_folio_fallbacks;
static int zs_cpuhp_state;

static int __init zs_set_init(struct zs_page_set *set, unsigned int order)
{
	set->order = order;
	set->retry_at = 0;
	set->folios = kcalloc(nr_cpu_ids, sizeof(*set->folios), GFP_KERNEL);
	return set->folios ? 0 : -ENOMEM;
}

static void zs_set_exit(struct zs_page_set *set)
{
	unsigned int cpu;

	if (!set->folios)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (set->folios[cpu])
			folio_put(set->folios[cpu]);
	}
	kfree(set->folios);
	set->folios = NULL;
}

/*
 * CPU hotplug, after @cpu is dead: unpublish its folios, wait until no
 * splice can still be taking references on them, drop the module's.
 * Buffers in pipes keep theirs.  A task that read this CPU's index just
 * before the CPU went away may publish a new folio for it; that one is
 * dropped at the next offline or at unload.
 */
static int zs_pages_cpu_dead(unsigned int cpu)
{
	struct folio *gone[ZS_NR_SETS];
	int set;

	for (set = 0; set < ZS_NR_SETS; set++)
		gone[set] = xchg(&zs_sets[set].folios[cpu], NULL);
	synchronize_rcu();
	for (set = 0; set < ZS_NR_SETS; set++) {
		if (!gone[set])
			continue;
		atomic_dec(&zs_sets[set].nr_folios);
		folio_put(gone[set]);
	}
	return 0;
}

int __init zs_pages_init(unsigned int folio_order)
{
	int ret;

	ret = zs_set_init(&zs_sets[ZS_SET_PAGE], 0);
	if (!ret)
		ret = zs_set_init(&zs_sets[ZS_SET_FOLIO], folio_order);
	if (!ret) {
		ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN,
						"char/zsplice:dead", NULL,
						zs_pages_cpu_dead);
		if (ret > 0) {
			zs_cpuhp_state = ret;
			ret = 0;
		}
	}
	if (ret)
		zs_pages_exit();
	return ret;
}

void zs_pages_exit(void)
{
	if (zs_cpuhp_state > 0)
		cpuhp_remove_state_nocalls(zs_cpuhp_state);
	zs_cpuhp_state = 0;
	zs_set_exit(&zs_sets[ZS_SET_PAGE]);
	zs_set_exit(&zs_sets[ZS_SET_FOLIO]);
}

/*
 * Allocate and publish @set's folio for @cpu, on @cpu's node, not by the
 * calling task's memory policy: the folio serves whoever splices on that
 * CPU.  Like the kernel's huge zero folio it is charged to no memory
 * cgroup: it is shared by every task that splices there.  Two tasks may
 * race here (preemption, CPU migration): the loser frees its folio.  A
 * large folio is tried without retries or warnings, and not again for
 * ZS_RETRY_INTERVAL after a failure (jiffies_64: no wrap to misread).
 * Returns false when no folio could be had.
 */
static bool zs_set_alloc(struct zs_page_set *set, unsigned int cpu)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO;
	struct folio *folio;

	if (set->order) {
		if (time_before64(get_jiffies_64(), READ_ONCE(set->retry_at)))
			return false;
		gfp |= __GFP_NORETRY | __GFP_NOWARN;
	}
	folio = __folio_alloc_node(gfp, set->order, cpu_to_node(cpu));
	if (!folio) {
		if (set->order)
			WRITE_ONCE(set->retry_at,
				   get_jiffies_64() + ZS_RETRY_INTERVAL);
		return false;
	}
	folio->private = (void *)(unsigned long)(cpu + 1);
	if (cmpxchg(&set->folios[cpu], NULL, folio))
		folio_put(folio);
	else
		atomic_inc(&set->nr_folios);
	return true;
}

/*
 * References on the calling CPU's folio of @set, one per buffer needed for
 * @len bytes, at most @slots; *@nr receives the number taken.  NULL when
 * that CPU has no folio yet, ERR_PTR(-ENOMEM) when its count is at
 * ZS_FOLIO_REF_MAX.  With preemption disabled, which the synchronize_rcu()
 * of zs_pages_cpu_dead() waits for, the CPU stays online meanwhile.
 */
static __always_inline struct folio *zs_set_get(struct zs_page_set *set,
						size_t len, unsigned int slots,
						unsigned int *nr)
{
	unsigned int shift = PAGE_SHIFT + set->order;
	struct folio *folio;

	*nr = min_t(size_t, slots, (len + (1UL << shift) - 1) >> shift);
	preempt_disable();
	folio = READ_ONCE(set->folios[smp_processor_id()]);
	if (likely(folio)) {
		if (likely(folio_ref_count(folio) < ZS_FOLIO_REF_MAX - (int)*nr))
			folio_ref_add(folio, *nr);
		else
			folio = ERR_PTR(-ENOMEM);
	}
	preempt_enable();
	return folio;
}

/*
 * zs_pages_get() when the calling CPU has no folio of *@set yet: allocate
 * it, or fall back from ZS_SET_FOLIO to ZS_SET_PAGE.  Out of line and
 * noinline, so that zs_pages_get() is only the fast path.
 */
static noinline struct folio *zs_pages_get_slow(enum zs_set *set, size_t len,
						unsigned int slots,
						unsigned int *nr)
{
	struct zs_page_set *s = &zs_sets[*set];
	struct folio *folio;

	for (;;) {
		if (!zs_set_alloc(s, raw_smp_processor_id())) {
			if (*set == ZS_SET_PAGE)
				return ERR_PTR(-ENOMEM);
			atomic_long_inc(&zs_folio_fallbacks);
			*set = ZS_SET_PAGE;
			s = &zs_sets[*set];
		}
		folio = zs_set_get(s, len, slots, nr);
		if (folio)
			return folio;
	}
}

/*
 * References on the folio of @set for the calling CPU, allocated on first
 * use: one per buffer needed for @len bytes, at most @slots; *@nr receives
 * the number taken.  Preemption may move the task afterwards: the CPU only
 * spreads refcount traffic, every folio of a set holds the same zeros.
 * When the folio of ZS_SET_FOLIO cannot be had, the 4 KiB page of
 * ZS_SET_PAGE serves, and *@set tells the caller which one it got.
 * ERR_PTR(-ENOMEM) when neither can be allocated or referenced.
 */
struct folio *zs_pages_get(enum zs_set *set, size_t len, unsigned int slots,
			   unsigned int *nr)
{
	struct folio *folio = zs_set_get(&zs_sets[*set], len, slots, nr);

	if (likely(folio))
		return folio;
	return zs_pages_get_slow(set, len, slots, nr);
}

size_t zs_pages_size(enum zs_set set)
{
	return PAGE_SIZE << zs_sets[set].order;
}

/*
 * Bytes that may still be appended to @buf: non-zero only when @buf is one
 * of ours, i.e. it uses nosteal_pipe_buf_ops, carries no flags (never
 * mergeable, never a packet) and its page is the head of a folio some CPU
 * of one of our sets publishes now.  Only the page identifies it (see the
 * top of this file).  Folios of an earlier module instance, or unpublished
 * at CPU offline, are never ours: they are still allocated, so no folio of
 * ours can alias them.
 */
size_t zs_pages_buf_room(const struct pipe_buffer *buf)
{
	size_t end = buf->offset + buf->len;
	struct folio *folio;
	unsigned long idx;
	int set;

	if (buf->ops != &nosteal_pipe_buf_ops || buf->flags)
		return 0;
	folio = page_folio(buf->page);
	if (&folio->page != buf->page)
		return 0;
	idx = (unsigned long)folio->private;
	if (!idx || idx > nr_cpu_ids)
		return 0;
	for (set = 0; set < ZS_NR_SETS; set++) {
		if (READ_ONCE(zs_sets[set].folios[idx - 1]) != folio)
			continue;
		if (end >= zs_pages_size(set))
			return 0;
		return zs_pages_size(set) - end;
	}
	return 0;
}

/* Folios @set has allocated so far. */
unsigned int zs_pages_count(enum zs_set set)
{
	return atomic_read(&zs_sets[set].nr_folios);
}

/* Splices of the folio set that fell back to a 4 KiB page. */
unsigned long zs_pages_fallbacks(void)
{
	return atomic_long_read(&zs_folio_fallbacks);
}

/* References held on @set's folios by anything but the module itself. */
unsigned long zs_pages_pipe_refs(enum zs_set set)
{
	struct zs_page_set *s = &zs_sets[set];
	unsigned long refs = 0;
	unsigned int cpu;

	cpus_read_lock();
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct folio *folio = READ_ONCE(s->folios[cpu]);

		if (folio)
			refs += folio_ref_count(folio) - 1;
	}
	cpus_read_unlock();
	return refs;
}

/*
 * Check that every allocated zero page and folio still holds only zeros:
 * print "ok <folios checked>", or one "corrupt <set> cpu <n> offset <o>"
 * line per folio that does not.  Returns the number of corrupt folios.
 */
int zs_pages_selfcheck(struct seq_file *m)
{
	unsigned int checked = 0, bad = 0, cpu;
	int set;

	cpus_read_lock();
	for (set = 0; set < ZS_NR_SETS; set++) {
		struct zs_page_set *s = &zs_sets[set];

		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct folio *folio = READ_ONCE(s->folios[cpu]);
			const char *data, *nonzero;

			if (!folio)
				continue;
			cond_resched();
			checked++;
			data = folio_address(folio);
			nonzero = memchr_inv(data, 0, zs_pages_size(set));
			if (!nonzero)
				continue;
			bad++;
			seq_printf(m, "corrupt %s cpu %u offset %td\n", s->name,
				   cpu, nonzero - data);
		}
	}
	cpus_read_unlock();
	if (!bad)
		seq_printf(m, "ok %u\n", checked);
	return bad;
}
