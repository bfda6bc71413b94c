/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SPIN model of lib/percpu_counter.c's lock-free counter (64-bit,
 * PERCPU_COUNTER_LOCKLESS).
 *
 * count is fbc->count, base fbc->base, total[] and delta[] the CPUs'
 * slots (struct percpu_counter_cpu), lock fbc->lock.  A task runs on each
 * CPU; an NMI may interrupt CPU 0's task at any step, and runs to
 * completion before that task goes on (nmi[0] and "provided").  A fold
 * (percpu_counter_move(): interrupts disabled), set() and a limited add's
 * slow path run with interrupts disabled, so only an NMI nests in them;
 * elsewhere (the fast path, a sum) the NMI also stands for an ordinary
 * interrupt, which can do no more than it.  Interleaving is sequentially
 * consistent; each atomic op, each local cmpxchg, this_cpu_xchg(),
 * this_cpu_add() and each plain read or write of a shared word is one
 * step.
 *
 * The protocol, as the code:
 *  add      c = delta; loop: if |c + a| >= B: fold(a), return; until the
 *           local cmpxchg(delta, c, c + a) succeeds (a failure reloads c);
 *           then total += a (this_cpu_add(), a step of its own)
 *  fold(a)  interrupts off; total += a; x = this_cpu_xchg(delta, 0);
 *           count += x + a, the one locked instruction.  A nested fold
 *           (an NMI's) takes a disjoint part of the delta.  Any context,
 *           NMI included
 *  sync     fold(0)
 *  sum      loop: b = base (acquire); s = b + every possible CPU's total;
 *           smp_rmb(); until base == b (a set moved it: read again).  No
 *           lock, in any context
 *  set(v)   lock, interrupts off; b = v - every CPU's total; count += b -
 *           base; base = b (release); smp_wmb(); unlock
 *  cpu_dead on a live CPU after the CPU died, under lock: count += delta;
 *           delta = 0 (nothing else writes the dead CPU's delta)
 *  limited  slow path: lock; the exact sum; if it plus the amount is
 *           within the limit, fold(amount) (percpu_counter_move()); unlock
 *  read     count
 *
 * So count is base + every CPU's total less its delta, once the folds in
 * flight (between their xchg and their add to count) and the fast path
 * adds in flight (between their cmpxchg and their add to total) landed.
 *
 * Scenarios (-DSCENARIO=N), NCPU 2 or 3, batch B:
 *  1  an add on each CPU, then a sum on CPU 1; CPU 0's add is on the fast
 *     path (1) or folds (2); CPU 0's NMI, anywhere in CPU 0's add (between
 *     its check and cmpxchg, its cmpxchg and its total, nested in its
 *     fold), adds on the fast path or folding, then sums
 *  2  set() on CPU 0, an NMI's add (fast path or folding) anywhere in it,
 *     then (NCPU 2) a sum; an add on the fast path (-1) or folding (1)
 *     then a sum on CPU 1, racing with the set
 *  3  slow-path limited adds, one per CPU, racing with each other and with
 *     their folds; CPU 0's NMI adds -1 (on the fast path) or -6 (folding,
 *     wherever it lands) anywhere in CPU 0's
 *  4  cpu_dead() of CPU NCPU-1 (its delta unfolded), run by a process on
 *     some live CPU, racing with a folding add on CPU 0 (and CPU 1 when
 *     NCPU is 3) and with an NMI's sum nested anywhere in CPU 0's fold; a
 *     fast path add (-1) that did its cmpxchg on the dead CPU's delta
 *     before it died, and migrated to CPU 0 with it, adds to CPU 0's total
 *     racing with all of them
 *  5  sync() on CPU 0, an NMI's add (fast path or folding) anywhere in it;
 *     a folding add on CPU 1 (and CPU 2)
 *
 * Asserted: a sum returns the adds completed at its call plus a subset of
 * those begun by its return (adds are numbered, ghost bitmasks gstart and
 * gdone; "ok" in check()), whichever context it runs in: an NMI's sum
 * nested in CPU 0's own fold returns (nothing in the model can wait there)
 * and is exact too.  A sum that read set()'s base counts set's value and
 * the adds that set did not read in the totals (ghost gtot, gseen); one
 * that read the base before (and read it unmoved again after the totals)
 * is ordered before set's store of the base: it counts the adds as if no
 * set ran, and of those not completed at its call only adds begun before
 * that store (ghost gpre), never one begun after set stored the base or
 * returned.  So a sum racing set() is linearizable with it.  A sum
 * retries only when set() moved the base, so at most once (one set), and
 * never in the NMI: an NMI's sum nested in set() reads the base unmoved
 * (set stores it last) and does not spin.  The exact sum of a limited
 * add's slow path (under fbc->lock: never retries), likewise.  After a
 * limited add's fold and after sync(), the CPU's delta is 0 or the NMI's
 * fast path add (ghost gfast): no delta stays full.  The fast path's local
 * cmpxchg fails only when the NMI changed the delta in between, so at most
 * once, and never in the NMI or on another CPU: no retry loop spins.  At
 * the end, all done: count == base + the totals less the deltas (no add
 * lost from count or counted twice); base + the totals is exactly the
 * adds done (after set(), its value plus the adds it did not read); every
 * delta is within the batch; after syncing every CPU count is that value;
 * and with limited adds it is within the limit (the other adds racing
 * with them are negative).  fbc->lock is a blocking guard, so a wait that
 * can last forever is an invalid end state, which the safety search
 * (-DSAFETY) reports.
 *
 * Not modelled: weak memory orders (the code relies on the release of
 * base in set() pairing with the acquire in the sum, on set's smp_wmb()
 * after it pairing with the sum's smp_rmb() before it reads the base
 * again, so that a sum that reads the total of an add after set() in
 * program order on set's CPU reads the new base again; on the local
 * cmpxchg, xchg and adds being atomic against the CPU's own interrupts,
 * NMI included: single instructions or LL/SC, not the generic irq-saving
 * this_cpu ops; and on per-CPU reads being single-copy atomic: 64-bit
 * words).  The fold's add to total, its xchg and its add to count are
 * unordered for other CPUs (relaxed this_cpu ops and atomic64_add()): a
 * read() that sees a fold's add to count may be followed, on another CPU,
 * by a sum that misses its total while the fold has not returned (the sum
 * may: the add is in flight).  Migration is modelled only between the fast
 * path's cmpxchg and its add to total, with CPU hotplug (scenario 4), not
 * between its read and its cmpxchg (a cmpxchg on the new CPU's delta,
 * which fails or adds within the batch, as the same-CPU one); interrupts
 * other than CPU 0's one NMI; limited_add's fast path and rough checks (it
 * always takes the exact sum), and the rough checks of
 * __percpu_counter_compare().  Their margin, batch times the online CPUs,
 * bounds the deltas, but count also lacks the delta a fold in flight took
 * and its amount, and adds on that CPU can build a delta again meanwhile.
 * With interrupts off in the fold only an NMI's adds can do that: with a
 * rough check, a limited add can pass the limit by up to one batch per
 * NMI-interrupted fold (a 6.12 fold held fbc->lock, which the rough checks
 * hold or come before, and an NMI could not add).  A limited add's fast
 * path that reads count while another CPU's slow path, its exact sum
 * taken, has not added its amount to count yet can pass the limit by
 * that amount; 6.12 did so too (its fast path read fbc->count without
 * the lock, before the slow path's update).
 *
 * Planted bugs, -DMUTANT_x (ktest/mutants/ patch: macro, scenario):
 *  fold-claims-unchecked.patch        FOLD_CLAIMS_UNCHECKED        1, 3, 5
 *  sum-reads-count.patch              SUM_READS_COUNT              1, 2, 4
 *  limited-add-rough.patch            LIMITED_ADD_ROUGH            3
 *  limited-add-unlocked-update.patch  LIMITED_ADD_UNLOCKED_UPDATE  3
 *  limited-add-keeps-full-delta.patch LIMITED_ADD_KEEPS_FULL_DELTA 3
 *  sum-online-only.patch              SUM_ONLINE_ONLY              4
 *  set-writes-count.patch             SET_WRITES_COUNT             2
 *  (sum reads base after the totals)  SUM_READS_BASE_LAST          2
 *  (sum does not read base again)     SUM_NO_BASE_RECHECK          2
 */

#ifndef NCPU
#define NCPU 2
#endif
#ifndef SCENARIO
#define SCENARIO 1
#endif
#define B	3
#define NADD	7
#define SETVAL	10

short count;
short base;
short total[NCPU];
short delta[NCPU];
bit lock;
bit nmi[NCPU];
bit offline[NCPU];	/* dead before the scenario: cpu_dead() is to run */

/* Ghost: add i adds amt[i]; bit i of gstart/gdone once begun/completed */
short amt[NADD];
byte gstart;
byte gdone;
byte gtot[NCPU];	/* the adds in total[c] */
byte gseen;		/* the adds in the totals set() read */
bit gset;		/* set() stored its base */
byte gpre;		/* the adds begun when set() stored its base */
short gfast;		/* the NMI's adds on the fast path */

#define BIT(id)		(1 << (id))

inline lock_acquire() { atomic { lock == 0 -> lock = 1 } }
inline lock_release() { lock = 0 }

/* Sum of the amounts of the adds in mask @msk, into @v (in a d_step) */
inline value(msk, v)
{
	v = 0;
	j = 0;
	do
	:: j < NADD ->
		if
		:: (msk) & BIT(j) -> v = v + amt[j]
		:: else
		fi;
		j++
	:: else -> break
	od
}

/*
 * @s must be @e plus the amounts of a subset of the adds in @g and not in
 * @l (NADD <= 7: the masks stay below 128, m below 256)
 */
inline check(s, e, l, g)
{
	d_step {
		hi = (g) & ~(l);
		m = 0;
		do
		:: m <= hi ->
			if
			:: (m & ~hi) == 0 ->
				value(m, v);
				if
				:: s == e + v -> ok = 1
				:: else
				fi
			:: else
			fi;
			m++
		:: else -> break
		od;
		assert(ok);
		hi = 0; m = 0; ok = 0; v = 0; j = 0; g = 0
	}
}

/*
 * A sum's check: @l the adds completed at its call, @sb whether it read
 * set()'s base.  After the set: its value, the adds completed and not read
 * by the set, and a subset of the others begun that it did not read.
 * Before the set (the set may have stored its base since): the adds
 * completed and a subset of the others begun before that store.
 */
inline check_sum(s, l, sb)
{
	d_step {
		if
		:: sb -> value((l) & ~gseen, v); e = SETVAL + v; g = gstart
		:: else -> value(l, v); e = v;
			if
			:: gset -> g = gpre
			:: else -> g = gstart
			fi
		fi;
		v = 0;
		if
		:: sb -> l = l | gseen
		:: else
		fi
	}
	check(s, e, l, g);
	e = 0
}

/*
 * percpu_counter_move() on CPU @c, add number @id of @a: add @a to the
 * total, take the delta with this_cpu_xchg() and add both to count.
 */
inline fold(c, a, id)
{
#ifdef MUTANT_FOLD_CLAIMS_UNCHECKED
	/* A plain read, then a plain reset: an NMI's add in between is lost */
	t = delta[c];
	d_step { total[c] = total[c] + a; gtot[c] = gtot[c] | BIT(id) };
	delta[c] = 0;
#else
	d_step { total[c] = total[c] + a; gtot[c] = gtot[c] | BIT(id) };
	d_step { t = delta[c]; delta[c] = 0 };	/* this_cpu_xchg() */
#endif
	d_step { count = count + t + a; gdone = gdone | BIT(id); t = 0 }
}

/* percpu_counter_add_batch() of @a on CPU @c, add number @id */
inline add(c, a, id, in_nmi)
{
	d_step { amt[id] = a; gstart = gstart | BIT(id); t = delta[c] };
	do
	:: d_step {
			v = t + a;
			ok = (v >= B || v <= -B);
			v = 0
		};
		if
		:: ok -> ok = 0; t = 0; fold(c, a, id); break
		:: else
		fi;
		d_step {	/* this_cpu_try_cmpxchg() */
			if
			:: delta[c] == t ->
				delta[c] = t + a;
				if
				:: in_nmi -> gfast = gfast + a
				:: else
				fi;
				ok = 1
			:: else ->
				/* The NMI added or folded in between: once */
				assert(c == 0 && !in_nmi && r == 0);
				r = 1;
				t = delta[c]
			fi
		};
		if
		:: ok ->
			ok = 0; t = 0; r = 0;
			/* this_cpu_add(): preemptible, the NMI may come first */
			d_step {
				total[c] = total[c] + a;
				gtot[c] = gtot[c] | BIT(id);
				gdone = gdone | BIT(id)
			};
			break
		:: else
		fi
	od
}

/* The amount @a, @x or @y: one for the fast path, one that folds */
inline nmi_amount(a, x, y) { if :: a = x :: a = y fi }

/* After a fold or sync on CPU @c: its delta is 0 or the NMI's fast path add */
inline assert_folded(c)
{
	d_step {
		v = delta[c];
		assert(v == 0 || (c == 0 && v == gfast));
		v = 0
	}
}

/*
 * percpu_counter_exact() into @s, with the adds done at the call (of the
 * pass that returns) in @l; @in_nmi: the NMI's
 */
inline exact(s, l, sb, in_nmi)
{
	do
	:: d_step {
			l = gdone;
#if defined(MUTANT_SUM_READS_BASE_LAST)
			s = 0
#elif defined(MUTANT_SUM_READS_COUNT)
			/* fbc->count, and the deltas below */
			s = count; sb = gset; b = base
#else
			s = base; sb = gset; b = base	/* smp_load_acquire() */
#endif
		};
		i = 0;
		do
		:: i < NCPU ->
			d_step {
#if defined(MUTANT_SUM_ONLINE_ONLY)
				if
				:: offline[i]
				:: else -> s = s + total[i]
				fi;
#elif defined(MUTANT_SUM_READS_COUNT)
				s = s + delta[i];
#else
				s = s + total[i];
#endif
				i++
			}
		:: else -> i = 0; break
		od;
#ifdef MUTANT_SUM_READS_BASE_LAST
		/* set() may have read the totals before the sum read them */
		atomic { s = s + base; sb = gset; b = base };
#endif
#ifdef MUTANT_SUM_NO_BASE_RECHECK
		/* The base read before a set, the totals after it */
		b = 0; break
#else
		/* smp_rmb(); READ_ONCE(fbc->base) */
		atomic {
			if
			:: base == b -> ok = 1
			:: else ->
				/*
				 * set() moved the base: never in the NMI
				 * (a set it interrupts stores the base last),
				 * and once (one set): the loop ends
				 */
				assert(!in_nmi && r == 0);
				r = 1
			fi;
			b = 0
		};
		if
		:: ok -> ok = 0; r = 0; break
		:: else
		fi
#endif
	od
}

/* __percpu_counter_sum() into @s, checked; @in_nmi: the NMI's */
inline sum(s, in_nmi)
{
	exact(s, lo, sb, in_nmi);
	check_sum(s, lo, sb);
	s = 0; lo = 0; sb = 0
}

/* percpu_counter_sync() on CPU @c, as add number @id of 0 */
inline sync(c, id)
{
	d_step { amt[id] = 0; gstart = gstart | BIT(id) };
	fold(c, 0, id);
	assert_folded(c)
}

inline set(val)
{
	lock_acquire();
	b = val;
	i = 0;
	do
	:: i < NCPU ->
		d_step {
			b = b - total[i];
			gseen = gseen | gtot[i];
			i++
		}
	:: else -> i = 0; break
	od;
#ifdef MUTANT_SET_WRITES_COUNT
	/* atomic64_set(), as 6.12: the deltas pending stay on the CPUs */
	count = val;
#else
	count = count + b - base;	/* base is stable under fbc->lock */
#endif
	/* smp_store_release(); smp_wmb() */
	d_step { base = b; gset = 1; gpre = gstart; b = 0 };
	lock_release()
}

/*
 * Slow path of __percpu_counter_limited_add() on CPU @c, @a > 0, add
 * number @id, deciding on the exact sum.  Interrupts are disabled, so only
 * the NMI interrupts it.
 */
inline limited_add(c, a, id, lim)
{
	lock_acquire();
#ifdef MUTANT_LIMITED_ADD_ROUGH
	d_step { s = count };
#else
	exact(s, lo, sb, 0);
	check_sum(s, lo, sb);
#endif
#ifdef MUTANT_LIMITED_ADD_UNLOCKED_UPDATE
	lock_release();
	lock_acquire();
#endif
	d_step {
		ok = (s + a <= lim);
		if
		:: ok -> amt[id] = a; gstart = gstart | BIT(id)
		:: else
		fi;
		s = 0; lo = 0; sb = 0
	};
	if
	:: ok ->
		ok = 0;
#ifdef MUTANT_LIMITED_ADD_KEEPS_FULL_DELTA
		/* this_cpu_add() to the delta, then to the total */
		delta[c] = delta[c] + a;
		d_step {
			total[c] = total[c] + a;
			gtot[c] = gtot[c] | BIT(id);
			gdone = gdone | BIT(id)
		};
#else
		fold(c, a, id);
#endif
		assert_folded(c)
	:: else
	fi;
	lock_release()
}

/* percpu_counter_cpu_dead() of CPU @d, on a live CPU */
inline cpu_dead(d)
{
	lock_acquire();
	count = count + delta[d];	/* nothing writes the dead CPU's delta */
	delta[d] = 0;
	lock_release()
}

#define LOCALS	bit ok, r, sb; byte i, j, m, hi, lo, g; \
		short s, t, a, v, b, e

/*
 * What the task on CPU c, its NMI and a process on any live CPU (OTHER)
 * run, per scenario; MIGRATED, a task on CPU 0 that came from the dead
 * CPU.  Adds 0, 1 and 6 are done before the start.
 */
#if SCENARIO == 1
#define TASK0	nmi_amount(a, 1, 2); add(0, a, 2, 0)
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1); sum(s, 1)
#define TASK1	add(1, 1, 4, 0); sum(s, 0)
#define TASK2	add(2, 3, 5, 0)
#elif SCENARIO == 2
#define TASK0	set(SETVAL)
#if NCPU == 2
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1); sum(s, 1)
#else
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1)
#endif
#define TASK1	nmi_amount(a, -1, 1); add(1, a, 4, 0); sum(s, 0)
#define TASK2	add(2, 3, 5, 0)
#elif SCENARIO == 3
#define LIMIT	(NCPU + 3)
#define TASK0	limited_add(0, 2, 2, LIMIT)
#define NMI0	nmi_amount(a, -1, -6); add(0, a, 3, 1)
#define TASK1	limited_add(1, 2, 4, LIMIT)
#define TASK2	limited_add(2, 2, 5, LIMIT)
#elif SCENARIO == 4
#define DEAD	(NCPU - 1)
#define TASK0	add(0, 2, 2, 0)
#define NMI0	sum(s, 1)
#define OTHER	cpu_dead(DEAD)	/* its hotplug callback, on CPU 0 or 1 */
/* Add 3's this_cpu_add() to the total, on CPU 0 after the migration */
#define MIGRATED d_step { total[0] = total[0] + amt[3]; \
			  gtot[0] = gtot[0] | BIT(3); gdone = gdone | BIT(3) }
#if NCPU > 2
#define TASK1	add(1, 2, 4, 0)
#endif
#elif SCENARIO == 5
#define TASK0	sync(0, 2)
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1)
#define TASK1	add(1, 1, 4, 0)
#define TASK2	add(2, 3, 5, 0)
#endif

#ifdef TASK0
proctype task0() provided (!nmi[0]) { LOCALS; TASK0 }
#endif
#ifdef NMI0
proctype nmi0() { LOCALS; nmi[0] = 1; NMI0; nmi[0] = 0 }
#endif
#ifdef TASK1
proctype task1() provided (!nmi[1]) { LOCALS; TASK1 }
#endif
#if NCPU > 2 && defined(TASK2)
proctype task2() provided (!nmi[2]) { LOCALS; TASK2 }
#endif
#ifdef OTHER
proctype other() { LOCALS; OTHER }
#endif
#ifdef MIGRATED
proctype migrated() provided (!nmi[0]) { MIGRATED }
#endif

init {
	LOCALS;

	/*
	 * Adds completed before the start, not folded: CPU 0 1, CPU 1 2,
	 * CPU 2 1.  The migrated add (scenario 4) did its cmpxchg.
	 */
	d_step {
		total[0] = 1; delta[0] = 1; amt[0] = 1; gtot[0] = BIT(0);
		total[1] = 2; delta[1] = 2; amt[1] = 2; gtot[1] = BIT(1);
		gstart = BIT(0) | BIT(1);
#if NCPU > 2
		total[2] = 1; delta[2] = 1; amt[6] = 1; gtot[2] = BIT(6);
		gstart = gstart | BIT(6);
#endif
		gdone = gstart;
#ifdef DEAD
		offline[DEAD] = 1;
#endif
#ifdef MIGRATED
		amt[3] = -1; gstart = gstart | BIT(3);
		delta[DEAD] = delta[DEAD] + amt[3];
#endif
	}
	atomic {
#ifdef TASK0
		run task0();
#endif
#ifdef NMI0
		run nmi0();
#endif
#ifdef TASK1
		run task1();
#endif
#if NCPU > 2 && defined(TASK2)
		run task2();
#endif
#ifdef OTHER
		run other();
#endif
#ifdef MIGRATED
		run migrated();
#endif
	}
	_nr_pr == 1;

	/* Everything done */
	d_step {
		assert(gdone == gstart);
		s = base;
		v = base;
		i = 0;
		do
		:: i < NCPU ->
			s = s + total[i];
			v = v + total[i] - delta[i];
			/* Within the batch */
			assert(delta[i] < B && delta[i] > -B);
			i++
		:: else -> break
		od;
		/* No add lost from count or counted twice */
		assert(count == v);
		/* The exact value: the adds done, or after set() those it did not read */
		value(gdone & ~gseen, v);
		if
		:: gset -> assert(s == SETVAL + v)
		:: else -> assert(s == v)
		fi;
		/* Synced on every CPU, count is exact */
		i = 0;
		do
		:: i < NCPU -> count = count + delta[i]; delta[i] = 0; i++
		:: else -> break
		od;
		assert(count == s);
#ifdef LIMIT
		assert(s <= LIMIT);
#endif
		i = 0; v = 0
	}
}
