/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SPIN model of lib/percpu_counter.c's lock-free folds (64-bit).
 *
 * G is fbc->count, P[] the per-CPU deltas, folds (bit 0 FROZEN, +2 per
 * move begun) and folded (+2 per move ended) the move counters, lock
 * fbc->lock, rec[] percpu_counter_moving.  A task runs on each CPU; an
 * NMI may interrupt CPU 0's task at any step, and runs to completion
 * before that task goes on (nmi[0] and "provided").  Interleaving is
 * sequentially consistent.
 *
 * Scenarios (-DSCENARIO=N), NCPU 2 or 3, batch B:
 *  1  adds that fold, an NMI's add nested in a fold (on the fast path or
 *     folding itself), a sum: lockless passes and the frozen fallback
 *  2  set() racing with folds in flight and with its freeze
 *  3  slow-path limited adds racing with each other
 *  4  cpu_dead() under a sum; an NMI's sum nested in a fold must return
 *  5  not in check-model.sh: an NMI's sum on a CPU whose task holds
 *     fbc->lock in the frozen pass deadlocks (invalid end state), as any
 *     NMI sum on a lock holder did in 6.12; -DNMI_REC_UNDER_LOCK (rec set
 *     around the locked pass) shows what would avoid it
 *
 * Asserted: a sum returns the adds completed at its call plus a subset of
 * those begun by its return (adds are numbered, ghost bitmasks gstart and
 * gdone; "allowed"); an NMI's nested sum only returns.  At the end
 * G + sum(P) is exactly the adds done ("s == base"); after set(), its
 * value plus a subset of the adds racing with it.  Slow-path limited adds
 * never together exceed the limit ("s <= LIMIT").  Lock and freeze waits
 * are blocking guards, so a wait that can last forever is an invalid end
 * state, which the safety search (-DSAFETY) reports.  The freeze's loop
 * is the guard (folds & ~FROZEN) == folded: folds only grows and never
 * runs behind folded, so the loop's two reads exit exactly when it holds.
 * A stream of adds that starves the freeze is outside a finite model.
 *
 * Planted bugs, -DMUTANT_x (scripts/mutants/ patch: macro, scenario):
 *  sum-misses-folds.patch             SUM_MISSES_FOLDS             1, 4
 *  fold-resets-delta.patch            FOLD_RESETS_DELTA            1
 *  limited-add-rough.patch            LIMITED_ADD_ROUGH            3
 *  limited-add-unlocked-update.patch  LIMITED_ADD_UNLOCKED_UPDATE  3
 *  freeze-no-wait.patch               FREEZE_NO_WAIT               1, 2
 *  (sum-locked-skips-cpu1.patch)      SUM_FROZEN_SKIPS_CPU1        1, 3
 */

#ifndef NCPU
#define NCPU 2
#endif
#ifndef SCENARIO
#define SCENARIO 1
#endif
#define B	3
#define FROZEN	1
#define NADD	5

short G;
short P[NCPU];
byte folds;
byte folded;
bit lock;
bit rec[NCPU];
bit nmi[NCPU];

/* Ghost: add i adds amt[i]; bit i of gstart/gdone once begun/completed */
short amt[NADD];
byte gstart;
byte gdone;
short glimit;		/* amounts the limited adds took */

#define BIT(id)		(1 << (id))

inline lock_acquire() { atomic { lock == 0 -> lock = 1 } }
inline lock_release() { lock = 0 }

/* Sum of the amounts of the adds in mask @m, into @v (in a d_step) */
inline value(m, v)
{
	v = 0;
	j = 0;
	do
	:: j < NADD ->
		if
		:: m & BIT(j) -> v = v + amt[j]
		:: else
		fi;
		j++
	:: else -> break
	od
}

/* @s must be @base plus the amounts of a subset of the adds begun and not in @lo */
inline check(s, base, lo)
{
	d_step {
		hi = gstart & ~lo;
		m = 0;
		do
		:: m <= hi ->
			if
			:: (m & ~hi) == 0 ->
				value(m, v);
				if
				:: s == base + v -> allowed = 1
				:: else
				fi
			:: else
			fi;
			m++
		:: else -> break
		od;
		assert(allowed);
		hi = 0; m = 0; allowed = 0; v = 0; j = 0
	}
}

inline freeze()
{
	folds = folds | FROZEN;
#ifndef MUTANT_FREEZE_NO_WAIT
	(folds & ~FROZEN) == folded
#endif
}

inline thaw() { folds = folds & ~FROZEN }

/* Frozen: leave the deltas alone, add straight to G */
inline frozen_add(c, a, id)
{
	d_step { G = G + a; rec[c] = outer; gdone = gdone | BIT(id); outer = 0 }
}

inline fold(c, a, id)
{
	d_step { outer = rec[c]; rec[c] = 1 }
	if
	:: folds & FROZEN -> frozen_add(c, a, id)
	:: else ->
		d_step { folds = folds + 2; v = folds }
		if
		:: v & FROZEN ->
			d_step { folded = folded + 2; v = 0 }
			frozen_add(c, a, id)
		:: else ->
			d_step { cnt = P[c]; v = 0 }
			G = G + cnt + a;
#ifdef MUTANT_FOLD_RESETS_DELTA
			P[c] = 0;
#else
			P[c] = P[c] - cnt;
#endif
			d_step {
				folded = folded + 2;
				rec[c] = outer;
				gdone = gdone | BIT(id);
				outer = 0; cnt = 0
			}
		fi
	fi
}

/* The fast path is a local cmpxchg: atomic against the CPU's NMI */
inline add(c, a, id)
{
	d_step {
		amt[id] = a;
		gstart = gstart | BIT(id);
		if
		:: P[c] + a < B && P[c] + a > -B ->
			P[c] = P[c] + a;
			gdone = gdone | BIT(id);
			ok = 1
		:: else -> ok = 0
		fi
	}
	if
	:: ok -> ok = 0
	:: else -> fold(c, a, id)
	fi
}

/* One lockless pass: @s, @ok */
inline try_sum(s, ok)
{
	d = folded;
	s = G;
	i = 0;
	do
	:: i < NCPU -> d_step { s = s + P[i]; i++ }
	:: else ->
		d_step {
#ifdef MUTANT_SUM_MISSES_FOLDS
			ok = 1;
#else
			ok = (folds & ~FROZEN) == d;
#endif
			d = 0; i = 0
		};
		break
	od
}

/* The pass with folds frozen, fbc->lock held */
inline sum_frozen(s)
{
	s = G;
	i = 0;
	do
	:: i < NCPU ->
		d_step {
#ifdef MUTANT_SUM_FROZEN_SKIPS_CPU1
			if
			:: i != 1 -> s = s + P[i]
			:: else
			fi;
#else
			s = s + P[i];
#endif
			i++
		}
	:: else -> break
	od;
	i = 0
}

/*
 * sum() on CPU @c into @s; @exact: 0 when an NMI found its CPU in a move
 * and returned the last pass.  @lo: the adds completed at the call.
 */
inline sum(c, in_nmi, s, exact)
{
	lo = gdone;
	exact = 1;
	try_sum(s, ok);
	if
	:: ok -> ok = 0
	:: else ->
		try_sum(s, ok);
		if
		:: ok -> ok = 0
		:: else ->
			if
			:: in_nmi && rec[c] -> exact = 0
			:: else ->
#ifdef NMI_REC_UNDER_LOCK
				d_step { outer = rec[c]; rec[c] = 1 };
#endif
				lock_acquire();
				freeze();
				sum_frozen(s);
				thaw();
				lock_release();
#ifdef NMI_REC_UNDER_LOCK
				d_step { rec[c] = outer; outer = 0 };
#endif
				skip
			fi
		fi
	fi;
	if
	:: exact ->
		d_step { value(lo, base) };
		check(s, base, lo)
	:: else
	fi
}

inline set(val)
{
	lock_acquire();
	freeze();
	folds = folds + 2;
	i = 0;
	do
	:: i < NCPU -> d_step { P[i] = 0; i++ }
	:: else -> d_step { G = val; i = 0 }; break
	od;
	folded = folded + 2;
	thaw();
	lock_release()
}

/*
 * Slow path of __percpu_counter_limited_add(), @a > 0, deciding on the
 * exact sum; as the code, it thaws before its update, under fbc->lock.
 */
inline limited_add(a, lim)
{
	lock_acquire();
	freeze();
#ifdef MUTANT_LIMITED_ADD_ROUGH
	s = G;
#else
	sum_frozen(s);
#endif
	thaw();
#ifdef MUTANT_LIMITED_ADD_UNLOCKED_UPDATE
	lock_release();
	lock_acquire();
#endif
	if
	:: s + a <= lim -> d_step { G = G + a; glimit = glimit + a; s = 0 }
	:: else -> s = 0
	fi;
	lock_release()
}

/* Run by a live CPU after @dead stopped */
inline cpu_dead(dead)
{
	lock_acquire();
	folds = folds + 2;
	G = G + P[dead];
	P[dead] = 0;
	folded = folded + 2;
	lock_release()
}

#define LOCALS	bit ok, outer, exact, allowed; byte i, j, d, m, hi, lo, v; \
		short s, cnt, base

/* What the task on CPU c and its NMI run, per scenario */
#if SCENARIO == 1
#define TASK0	add(0, 1, 1); add(0, 2, 2)
#define NMI0	add(0, 2, 3)
#define TASK1	sum(1, 0, s, exact)
#define TASK2	add(2, 4, 4)
#elif SCENARIO == 2
#define TASK0	set(10)
#define TASK1	add(1, 1, 2)
#define TASK2	add(2, 2, 3)
#elif SCENARIO == 3
#define LIMIT	(NCPU + 3)
#define TASK0	limited_add(2, LIMIT)
#define TASK1	limited_add(2, LIMIT)
#define TASK2	limited_add(2, LIMIT)
#elif SCENARIO == 4
#define TASK0	add(0, 2, 1); add(0, 1, 2)
#define NMI0	sum(0, 1, s, exact)
#define TASK1	cpu_dead(1)	/* CPU 1 is down: its hotplug callback */
#define TASK2	sum(2, 0, s, exact)
#elif SCENARIO == 5
#define TASK0	sum(0, 0, s, exact)
#define NMI0	sum(0, 1, s, exact)
#define TASK1	add(1, 1, 1); add(1, 2, 2)
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

init {
	LOCALS;

	/* Adds completed before the start, held in the deltas */
	d_step {
		skip;
#if SCENARIO == 1 || SCENARIO == 4
		P[1] = 2; amt[0] = 2; gstart = BIT(0); gdone = BIT(0);
#elif SCENARIO == 2
		P[0] = 1; P[1] = 2; amt[0] = 1; amt[1] = 2;
		gstart = BIT(0) | BIT(1); gdone = gstart;
#elif SCENARIO == 3
		P[0] = 1; P[1] = 2;
#endif
#if NCPU > 2 && (SCENARIO == 2 || SCENARIO == 3)
		P[2] = 1;
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
	}
	_nr_pr == 1;

	/* Everything done: the count is exact */
	i = 0;
	do
	:: i < NCPU -> s = s + P[i]; i++
	:: else -> break
	od;
	s = s + G;
	assert(gdone == gstart);
#if SCENARIO == 2
	check(s, 10, BIT(0) | BIT(1));
#elif SCENARIO == 3
	assert(s <= LIMIT);
	assert(s == NCPU + 1 + glimit);
#else
	d_step { value(gdone, base) };
	assert(s == base)
#endif
}
