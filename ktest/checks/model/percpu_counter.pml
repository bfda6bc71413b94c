/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SPIN model of lib/percpu_counter.c's lock-free folds (64-bit,
 * PERCPU_COUNTER_LOCKLESS).
 *
 * G is fbc->count, P[] the per-CPU deltas, folds (bit 0 FROZEN, +2 per
 * move begun) and folded (+2 per move ended) the move counters, lock
 * fbc->lock.  A task runs on each CPU; an NMI may interrupt CPU 0's task
 * at any step, and runs to completion before that task goes on (nmi[0]
 * and "provided").  Interleaving is sequentially consistent; each atomic
 * op, the fast path's local cmpxchg and the fold's this_cpu_sub() are one
 * step each.
 *
 * The protocol, as the code:
 *  fold     v = atomic_add_return(2, &folds); if v & FROZEN: G += a and
 *           return (a backoff: its end is counted at the thaw); else
 *           c = P; G += c + a; P -= c (not a reset: an NMI's add in
 *           between stays); folded += 2.  No plain pre-check of FROZEN.
 *  freeze   under fbc->lock, where FROZEN is clear (asserted):
 *           begun = atomic_fetch_add(FROZEN, &folds), then wait for
 *           folded == begun (the moves begun before end)
 *  thaw     f = folded; v = atomic_fetch_sub(FROZEN, &folds);
 *           if v - FROZEN != f, folded += v - FROZEN - f: the ends of
 *           the folds that backed off while frozen (a real move begun
 *           after the sub adds its own +2)
 *  sum      two lockless passes (folded, G, P[], then folds: kept when
 *           (folds & ~FROZEN) == folded); an NMI then returns the last
 *           pass and never locks; else lock, freeze, a pass, thaw, unlock
 *  set      lock, freeze, one move (folds += 2, P[] = 0, G = val,
 *           folded += 2), thaw, unlock
 *  sync     lock, one move of this CPU's delta (folds += 2, c = P,
 *           G += c, P -= c, folded += 2), unlock: under the lock no freeze
 *           is in progress, so the move always happens
 *  cpu_dead lock, one move of the dead CPU's delta, unlock
 *  limited  slow path: lock, freeze, one pass, thaw; if the amount fits
 *           the limit: into this CPU's delta if it fits there (a local
 *           cmpxchg), else one move of that delta with it; unlock
 *
 * Scenarios (-DSCENARIO=N), NCPU 2 or 3, batch B:
 *  1  adds that fold, an NMI's add nested in a fold (on the fast path or
 *     folding itself), a sum: lockless passes and the frozen fallback
 *  2  set() racing with folds in flight and with its freeze
 *  3  slow-path limited adds racing with each other
 *  4  cpu_dead() under a sum; an NMI's sum nested in a fold must return
 *  5  an NMI's sum on a CPU whose task holds fbc->lock in the frozen pass
 *     (6.12 deadlocked there): it returns after two failed passes
 *  6  sync() after a fold on CPU 0, with an NMI's add on CPU 0 anywhere,
 *     racing with CPU 1's sum (the fold can fail both its passes, so the
 *     sync meets the freeze); with 3 CPUs a fold on CPU 2 too
 *  7  an NMI's add (fast path or folding, either) while CPU 0's task is in
 *     a freeze (a sum whose passes failed: lock held, frozen pass) or
 *     while CPU 1 is in one; with 3 CPUs a fold on CPU 2 too
 *  8  slow-path limited adds racing with folds on CPU 1
 *  9  a slow-path limited add on CPU 0 with an NMI's add on CPU 0 (fast
 *     path or folding) anywhere in it, and a fold on CPU 1
 * 10  sync() on CPU 0 with an NMI's add (fast path or folding) anywhere in
 *     it, racing with CPU 1's sum: a nested fold leaves CPU 0's delta at
 *     minus sync's read, within the batch
 * 11  set() with an NMI's add on its CPU (fast path or folding) and folds
 *     on CPU 1
 * 12  an NMI's sum anywhere in a slow-path limited add on its CPU, a fold
 *     on CPU 1
 *
 * Asserted: a sum returns the adds completed at its call plus a subset of
 * those begun by its return (adds are numbered, ghost bitmasks gstart and
 * gdone; "allowed"); so does a limited add's frozen pass, counting the
 * limited adds before it (glimit); an NMI's nested sum only returns.
 * When sync() returns, its CPU's delta holds only the fast path adds done
 * on that CPU since sync's read of it ("P[c] == v").  At the end G + sum(P)
 * is exactly the adds done ("s == base"); after set(), its value plus a
 * subset of the adds racing with it; and folded == folds: no move in
 * flight, every backoff's end counted by a thaw.  Slow-path limited adds never
 * together exceed the limit ("s <= LIMIT"; the other adds racing with them
 * are negative).  Lock and freeze waits are blocking guards, so a wait
 * that can last forever is an invalid end state, which the safety search
 * (-DSAFETY) reports.  The freeze's loop is the guard folded == begun:
 * folded only grows, so the loop exits exactly when it holds, if ever.  A
 * stream of adds that starves the freeze is outside a finite model.
 * Not modelled: weak memory orders (litmus/ states the orderings the
 * code relies on, for herd7 and tools/memory-model, which Debian does not
 * package: make check does not run them); limited_add's fast path and rough
 * checks (it always takes an exact sum); a fast path add's local cmpxchg is
 * atomic here against set()'s remote reset too, so the race that the code
 * documents there (the add may undo the reset) is not explored.
 *
 * Planted bugs, -DMUTANT_x (ktest/mutants/ patch: macro, scenario):
 *  sum-misses-folds.patch             SUM_MISSES_FOLDS             1, 4
 *  fold-resets-delta.patch            FOLD_RESETS_DELTA            1, 6
 *  limited-add-rough.patch            LIMITED_ADD_ROUGH            3, 8
 *  limited-add-unlocked-update.patch  LIMITED_ADD_UNLOCKED_UPDATE  3
 *  limited-add-keeps-full-delta.patch LIMITED_ADD_KEEPS_FULL_DELTA 3, 8
 *  freeze-no-wait.patch               FREEZE_NO_WAIT               1, 2, 7, 8
 *  (sum-locked-skips-cpu1)            SUM_FROZEN_SKIPS_CPU1        1, 7
 *  (sync done as a fold, unlocked)    SYNC_AS_FOLD                 6
 *  (thaw reads folded after the sub)  THAW_READS_LATE              1, 7
 */

#ifndef NCPU
#define NCPU 2
#endif
#ifndef SCENARIO
#define SCENARIO 1
#endif
#define B	3
#define FROZEN	1
#define NADD	6

short G;
short P[NCPU];
byte folds;
byte folded;
bit lock;
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
#if SCENARIO == 12
				/* the limited add's amount, in or not */
				:: s == base + 2 + v -> allowed = 1
#endif
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

/* fbc->lock held */
inline freeze()
{
	/* The code's fetch_add sets the bit: it is clear under fbc->lock */
	d_step { assert(!(folds & FROZEN)); begun = folds; folds = folds + FROZEN }
#ifndef MUTANT_FREEZE_NO_WAIT
	folded == begun;
#endif
	begun = 0
}

/* Reads folded while frozen; adds only if some fold backed off */
inline thaw()
{
#ifdef MUTANT_THAW_READS_LATE
	d_step { v = folds; folds = folds - FROZEN };
	fd = folded;
#else
	fd = folded;
	d_step { v = folds; folds = folds - FROZEN };
#endif
	if
	:: v - FROZEN != fd -> folded = folded + v - FROZEN - fd
	:: else
	fi;
	v = 0; fd = 0
}

/* sync()'s move of CPU @c's delta, read into cnt (this_cpu_sub: an NMI's add since the read stays) */
inline move(c)
{
	G = G + cnt;
	P[c] = P[c] - cnt
}

/* Begun frozen, a fold backs off: the amount to G alone, its end counted at the thaw */
inline fold(c, a, id)
{
	d_step { folds = folds + 2; v = folds & FROZEN }
	if
	:: v -> d_step { G = G + a; gdone = gdone | BIT(id); v = 0 }
	:: else ->
		d_step { cnt = P[c]; v = 0 };
		G = G + cnt + a;
#ifdef MUTANT_FOLD_RESETS_DELTA
		P[c] = 0;
#else
		P[c] = P[c] - cnt;	/* an NMI's add since the read stays */
#endif
		d_step { folded = folded + 2; gdone = gdone | BIT(id); cnt = 0 }
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

/*
 * percpu_counter_sync() on CPU @c: its delta moves into G even while
 * another CPU has the counter frozen.  When it returns, the delta holds
 * only the adds in @fast (on the fast path on CPU @c) done since its read.
 */
inline sync(c, fast)
{
#ifdef MUTANT_SYNC_AS_FOLD
	/* The review's bug: a fold of 0, unlocked, moving nothing if frozen */
	d_step { folds = folds + 2; v = folds & FROZEN; lo = gdone }
	if
	:: v -> v = 0
	:: else ->
		d_step { cnt = P[c]; lo = gdone };
		move(c);
		folded = folded + 2
	fi;
#else
	lock_acquire();
	folds = folds + 2;
	d_step { cnt = P[c]; lo = gdone };
	move(c);
	folded = folded + 2;
	lock_release();
#endif
	d_step {
		value(gdone & ~lo & fast, v);
		#if SCENARIO == 10
		/* An NMI's fold inside leaves minus sync's read */
		assert(P[c] >= -B && P[c] <= B);
#else
		assert(P[c] == v);
#endif
		v = 0; j = 0; cnt = 0; lo = 0
	}
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

inline sum_locked(s)
{
	lock_acquire();
	freeze();
	sum_frozen(s);
	thaw();
	lock_release()
}

/*
 * sum() on CPU @c into @s; @exact: 0 when an NMI's two passes failed and
 * it returned the last one.  @lo: the adds completed at the call.
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
			:: in_nmi -> exact = 0
			:: else -> sum_locked(s)
			fi
		fi
	fi;
	if
	:: exact ->
		d_step { value(lo, base) };
		check(s, base, lo)
	:: else
	fi;
	lo = 0; exact = 0
}

/*
 * A sum whose two lockless passes failed (moves on CPUs outside the model
 * overlapped them): the locked pass, with what sum() asserts.
 */
inline slow_sum(s)
{
	lo = gdone;
	sum_locked(s);
	d_step { value(lo, base) };
	check(s, base, lo);
	lo = 0
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
 * Slow path of __percpu_counter_limited_add() on CPU @c, @a > 0, deciding
 * on the exact sum: one frozen pass.  As the code, its update comes under
 * fbc->lock: to the CPU's delta if it fits there, else with a move of
 * that delta.
 */
inline limited_add(c, a, lim)
{
	lock_acquire();
	lo = gdone;
	freeze();
#ifdef MUTANT_LIMITED_ADD_ROUGH
	s = G;
#else
	sum_frozen(s);
#endif
	thaw();
	d_step { value(lo, base) };
	check(s, base + glimit, lo);
#ifdef MUTANT_LIMITED_ADD_UNLOCKED_UPDATE
	lock_release();
	lock_acquire();
#endif
	if
	:: s + a <= lim ->
		/* The local cmpxchg: the check and the add are one step */
		d_step {
			s = 0;
			v = P[c] + a;
			if
			:: v <= B && v >= -B ->
				P[c] = v; glimit = glimit + a; ok = 1
			:: else -> ok = 0
			fi;
			v = 0
		};
		if
		:: ok -> ok = 0
		:: else ->
#ifdef MUTANT_LIMITED_ADD_KEEPS_FULL_DELTA
			d_step { G = G + a; glimit = glimit + a; v = 0 };
#else
			folds = folds + 2;
			d_step { cnt = P[c]; v = 0 };
			d_step { G = G + cnt + a; glimit = glimit + a };
			P[c] = P[c] - cnt;
			d_step { folded = folded + 2; cnt = 0 };
#endif
#if SCENARIO == 9
			/* An NMI's fold inside the move leaves minus its read */
			assert(P[c] >= -B && P[c] <= B)
#else
			/* No delta stays full */
			assert(P[c] == 0)
#endif
		fi
	:: else -> s = 0
	fi;
	lock_release();
	lo = 0
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

#define LOCALS	bit ok, exact, allowed; byte i, j, d, m, hi, lo, begun, fd; \
		short s, cnt, base, a, v

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
#define TASK0	limited_add(0, 2, LIMIT)
#define TASK1	limited_add(1, 2, LIMIT)
#define TASK2	limited_add(2, 2, LIMIT)
#elif SCENARIO == 4
#define TASK0	add(0, 2, 1); add(0, 1, 2)
#define NMI0	sum(0, 1, s, exact)
#define TASK1	cpu_dead(1)	/* CPU 1 is down: its hotplug callback */
#define TASK2	sum(2, 0, s, exact)
#elif SCENARIO == 5
#define TASK0	sum(0, 0, s, exact)
#define NMI0	sum(0, 1, s, exact)
#define TASK1	add(1, 1, 1); add(1, 2, 2)
#elif SCENARIO == 6
#define TASK0	add(0, 2, 2); sync(0, BIT(3))
#define NMI0	add(0, 1, 3)	/* on the fast path, wherever it lands */
#define TASK1	sum(1, 0, s, exact)
#define TASK2	add(2, 2, 4)
#elif SCENARIO == 7
#define TASK0	slow_sum(s)
#define NMI0	if :: a = 1 :: a = 2 fi; add(0, a, 3)
#define TASK1	slow_sum(s)
#define TASK2	add(2, 2, 4)
#elif SCENARIO == 8
#define LIMIT	(NCPU + 1)
#define TASK0	limited_add(0, 2, LIMIT)
#define TASK1	add(1, -5, 3); add(1, -3, 4)	/* both fold */
#define TASK2	limited_add(2, 1, LIMIT)
#elif SCENARIO == 9
#define LIMIT	(NCPU + 3)
#define TASK0	limited_add(0, 2, LIMIT)
#define NMI0	if :: a = 1 :: a = -2 fi; add(0, a, 3)
#define TASK1	add(1, 2, 4)
#elif SCENARIO == 10
#define TASK0	sync(0, 0)
#define NMI0	if :: a = 1 :: a = 2 fi; add(0, a, 3)
#define TASK1	sum(1, 0, s, exact)
#define TASK2	add(2, 2, 4)
#elif SCENARIO == 11
#define TASK0	set(10)
#define NMI0	if :: a = 1 :: a = 2 fi; add(0, a, 2)
#define TASK1	add(1, 1, 3); add(1, 2, 4)
#elif SCENARIO == 12
#define LIMIT	(NCPU + 3)
#define TASK0	limited_add(0, 2, LIMIT)
#define NMI0	sum(0, 1, s, exact)
#define TASK1	add(1, 2, 4)
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
#elif SCENARIO == 3 || SCENARIO == 8
		P[0] = 1; P[1] = 2; amt[0] = 1; amt[1] = 2;
		gstart = BIT(0) | BIT(1); gdone = gstart;
#elif SCENARIO == 9
		P[0] = 2; P[1] = 1; amt[0] = 2; amt[1] = 1;
		gstart = BIT(0) | BIT(1); gdone = gstart;
#elif SCENARIO == 5
		P[0] = 1; amt[0] = 1; gstart = BIT(0); gdone = BIT(0);
#elif SCENARIO == 6 || SCENARIO == 7 || SCENARIO >= 10
		P[0] = 1; P[1] = 2; amt[0] = 1; amt[1] = 2;
		gstart = BIT(0) | BIT(1); gdone = gstart;
#endif
#if NCPU > 2 && SCENARIO != 1 && SCENARIO != 4 && SCENARIO != 5
		P[2] = 1; amt[5] = 1; gstart = gstart | BIT(5); gdone = gstart;
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
	assert(folded == folds);
	d_step { value(gdone, base) };
#if SCENARIO == 2 || SCENARIO == 11
	check(s, 10, BIT(0) | BIT(1) | BIT(5));
#elif SCENARIO == 3 || SCENARIO == 8
	assert(s <= LIMIT);
	assert(s == base + glimit)
#elif SCENARIO == 9 || SCENARIO == 12
	assert(s == base + glimit)
#else
	assert(s == base)
#endif
}
