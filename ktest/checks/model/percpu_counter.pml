/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SPIN model of lib/percpu_counter.c's lock-free counter (64-bit,
 * PERCPU_COUNTER_LOCKLESS).
 *
 * count is fbc->count, base fbc->base, lock fbc->lock, mover
 * percpu_counter_mover; delta[], gen[] and folded[] the CPUs' slots
 * (struct percpu_counter_cpu).  A task runs on each CPU; an NMI may
 * interrupt CPU 0 at any step of what runs there, and runs to completion
 * before it goes on (nmi[0] and "provided").  A fold
 * (percpu_counter_move(): interrupts disabled), set(), a limited add's
 * slow path and cpu_dead() run with interrupts disabled, so only an NMI
 * nests in them; elsewhere (the fast path, a sum) the NMI also stands for
 * an ordinary interrupt, which can do no more than it.  Where two
 * processes share a CPU (cpu_dead() and a task; a migrated reader and CPU
 * 0's task), neither runs while the other has interrupts off (cli[],
 * clidead).  Interleaving is sequentially consistent; each atomic op,
 * each local cmpxchg, this_cpu_xchg(), this_cpu_add(), this_cpu_inc() and
 * each plain read or write of a shared word is one step.  The fold's
 * first gen++ is this_cpu_inc(), one RMW (an NMI's whole fold lands
 * before or after it; -DMUTANT_GEN_INC_PLAIN: a load and a store, as
 * __this_cpu_inc() is on arm64 and the generic raw_cpu ops), and so is
 * its add to folded, this_cpu_add(), where a nested fold adds too
 * (-DMUTANT_FOLDED_ADD_PLAIN: a load and a store); its second gen++
 * (__this_cpu_inc()) is one step: no nested fold writes gen while it is
 * odd.
 *
 * The protocol, as the code (a CPU's adds are folded + delta; count is
 * base + the folded parts once the folds in flight land):
 *  add      c = delta; loop: if |c + a| >= B: fold(a), return; until the
 *           local cmpxchg(delta, c, c + a) succeeds (a failure reloads c):
 *           6.12's fast path
 *  fold(a)  percpu_counter_move(), interrupts off: if gen is odd (an NMI
 *           in its CPU's own fold): this_cpu_add(folded, a); count += a;
 *           return; else
 *           this_cpu_inc(gen) (odd); x = this_cpu_xchg(delta, 0);
 *           folded += x + a; gen++ (even); count += x + a, the one locked
 *           instruction.  Any context, NMI included
 *  sync     fold(0)
 *  cpu_sum  of CPU k on CPU `this`: loop: g = gen[k]; f = folded[k];
 *           r = f + delta[k] (the two reads in either order, no barrier
 *           between; -DFOLDED_FIRST: the code's order only); if g is even
 *           and gen[k] == g: r; if g is odd, interrupts are off and k ==
 *           this or mover == this (the reader is an NMI in its CPU's own
 *           fold, or in the move_dead() its CPU runs): r, which may miss
 *           that fold's or move's x; if g is odd in an NMI otherwise: f
 *           (an NMI never waits, so two cannot wait for each other's
 *           CPU); else again (a wait for the fold or move in flight: a
 *           blocking guard while gen[k] is g, odd).  `this` is
 *           raw_smp_processor_id() as it is at the test (a preemptible
 *           reader may have migrated since it began; the compiler may
 *           read it there)
 *  sum      loop: b = base (acquire); s = b + cpu_sum() of every possible
 *           CPU; smp_rmb(); until base == b (a set moved it: read again).
 *           No lock, in any context
 *  set(v)   lock, interrupts off; b = v - every CPU's cpu_sum(); count +=
 *           b - base; base = b (release); smp_wmb(); unlock
 *  cpu_dead on a live CPU after the CPU died, interrupts off, under lock:
 *           x = delta; mover = this CPU; gen++ (odd); delta = 0;
 *           folded += x; gen++ (even); mover = -1; count += x (plain
 *           writes: nothing else writes the dead CPU's slot)
 *  limited  slow path, interrupts off: lock; the exact sum; if it plus
 *           the amount is within the limit: if |delta + a| <= B,
 *           this_cpu_add(delta, a), else fold(a) (percpu_counter_move());
 *           unlock
 *  read     count
 *
 * Scenarios (-DSCENARIO=N), NCPU 2 or 3, batch B:
 *  1  an add on each CPU, then a sum on CPU 1, preemptible: (NCPU 2) it
 *     may go on on CPU 0 (migrate) at any step once no fold and no NMI
 *     runs there (with interrupts on it must not take CPU 0's odd gen,
 *     read before its migration, as its own fold's); CPU 0's add is on
 *     the fast path (1) or folds (2); CPU 0's NMI, anywhere in CPU 0's
 *     add (between its read and cmpxchg, anywhere in its fold), adds on
 *     the fast path or folding, then (NCPU 2) adds 1 (folding after the
 *     fast path; on the fast path after the fold: a gen ABA if
 *     this_cpu_inc() were a load and a store) and sums
 *  2  set() on CPU 0, an NMI's add anywhere in it, on the fast path or
 *     folding, then a sum (NCPU 3: on the fast path, no sum); an add on
 *     the fast path (-1) or folding (1) (NCPU 3: folding), then a sum, on
 *     CPU 1, racing with the set; (NCPU 3) an add on the fast path on
 *     CPU 2
 *     (With 3 CPUs, the NMI's adds and sums of scenarios 1 and 2 and the
 *     choices and the folds on CPU 2 of scenario 2 would multiply the
 *     states by ten or so: they are checked with 2 CPUs.)
 *  3  slow-path limited adds, one per CPU, racing with each other and with
 *     their folds; CPU 0's NMI adds -1 (on the fast path) or -6 (folding,
 *     wherever it lands) anywhere in CPU 0's
 *  4  cpu_dead() of CPU NCPU-1 (its delta unfolded) on CPU 0, racing with
 *     a folding add on CPU 0 (and CPU 1 when NCPU is 3) and with a sum
 *     nested anywhere in CPU 0's add, fold or cpu_dead(): its sum finds
 *     the dead CPU's gen odd in the move it interrupted (the mover is its
 *     CPU) and must return, not spin.  NCPU 2: the nested context is a
 *     debug exception (in_nmi() false: an arm64 kprobe's BPF program).
 *     NCPU 3: an NMI, which must not take CPU 1's fold in flight for the
 *     move it interrupted
 *  5  sync() on CPU 0, an NMI's add (fast path or folding) anywhere in it;
 *     a folding add on CPU 1 (and CPU 2)
 *
 * Asserted: a sum returns the adds completed at its call plus a subset of
 * those begun by its return (adds are numbered, ghost bitmasks gstart and
 * gdone; "ok" in check()), whichever context it runs in; an NMI's sum
 * nested in its CPU's own fold, or in the move_dead() of its CPU, returns
 * at once, and may miss the adds that fold or move took from the delta
 * (ghost gx); one that finds another CPU's gen odd may miss that CPU's
 * adds outside its folded part (ghost gm); none other, and it counts
 * none twice.  A sum that read set()'s
 * base counts set's value and the adds that set did not read (ghost
 * gseen, from gfol and gdel: the adds in each CPU's folded part and
 * delta); one that read the base before (and read it unmoved again after
 * the CPUs) is ordered before set's store of the base: it counts the adds
 * as if no set ran, and of those not completed at its call only adds
 * begun before that store (ghost gpre), never one begun after set stored
 * the base or returned.  So a sum racing set() is linearizable with it.
 * A sum retries the base only when set() moved it, so at most once (one
 * set), and never in the NMI: an NMI's sum nested in set() reads the base
 * unmoved (set stores it last).  The exact sum of a limited add's slow
 * path (under fbc->lock: the base never moves) likewise.  After a fold
 * of a task (sync(), a limited add's move) its CPU's delta is 0 but for
 * the NMI's adds since (ghost gnd); after a limited add's slow path its
 * CPU's |delta| <= B unless the NMI's adds pushed it.  The fast path's
 * local cmpxchg fails only when the NMI changed the delta in between, so
 * at most once, and never in the NMI or on another CPU.  No reader spins
 * forever: a wait for gen to move (and for fbc->lock) is a blocking
 * guard, so one that can last forever is an invalid end state, which the
 * safety search (-DSAFETY) reports.  At the end, all done: every gen is
 * even, no mover, interrupts on; count == base + the folded parts (no
 * fold lost from count or counted twice); base + the folded parts and
 * deltas is exactly the adds done (after set(), its value plus the adds
 * it did not read); every |delta| <= B unless the NMI's adds pushed it;
 * with limited adds the value is within the limit (the other adds racing
 * with them are negative).
 *
 * Found by this model in earlier versions of the code, each now a planted
 * bug below that a scenario of make check catches:
 *  GEN_INC_PLAIN (scenario 1, NCPU 2): the NMI folds, then adds on the
 *     fast path, between the load and the store of the task's first
 *     gen++ (a plain __this_cpu_inc(), generic raw_cpu op): its two gen++
 *     are lost, gen comes back to the even value a remote sum read after
 *     the NMI, and that sum, reading the folded part before the task's
 *     fold and the delta after its xchg, misses the NMI's fast path add,
 *     completed before it was called (with the delta read first, it
 *     counts it twice).
 *  READER_SHORTCUT_ANY_CONTEXT (scenario 1): CPU 1's sum, preemptible,
 *     reads CPU 0's gen odd and its folded part and delta in the middle
 *     of a fold there (the delta taken, not yet folded), is preempted,
 *     and goes on on CPU 0 once that fold is done: cpu ==
 *     raw_smp_processor_id(), so it returns what it read, without CPU 0's
 *     delta, adds completed before it was called.  Only an NMI (interrupts
 *     off: it cannot migrate) can be in a fold of its own CPU.
 *  NO_MOVER (scenario 4, NCPU 2): cpu_dead() runs on a live CPU with
 *     interrupts off, but an NMI there can sum: with 2 CPUs it is CPU 0,
 *     the only live one.  Its gen of the dead CPU is odd, the dead CPU is
 *     not the NMI's: without the mover the sum of a debug exception there
 *     (in_nmi() false) spins for the move_dead() it interrupted (an
 *     invalid end state).
 *  MOVER_ANY_CPU (scenario 4, NCPU 3): an NMI nested in move_dead() on
 *     CPU 0 finds CPU 1's gen odd in a fold and, the mover being its CPU,
 *     takes it as its own move: it reads CPU 1's delta before the xchg
 *     and its folded part after the add, and counts the delta twice.
 *  MOVE_DEAD_FOLDED_FIRST (scenario 4, NCPU 2): with the mover, an NMI
 *     between move_dead()'s add to the folded part and its reset of the
 *     delta returns both: the dead CPU's delta counted twice.  Taking the
 *     delta first, as a fold does, it may only miss it (gx), as an NMI in
 *     its CPU's own fold may.
 *
 * Not modelled: weak memory orders (the code relies on set's release of
 * base pairing with the sum's acquire, on set's smp_wmb() after it
 * pairing with the sum's smp_rmb() before it reads the base again; on the
 * fold's smp_wmb()s between its gen writes and its data writes pairing
 * with cpu_sum()'s smp_rmb()s, a seqcount; on the local cmpxchg, xchg,
 * this_cpu_add() and this_cpu_inc() being atomic against the CPU's own
 * interrupts, NMI included: single instructions or LL/SC, not the generic
 * irq-saving this_cpu ops; on an NMI seeing irqs_disabled(); on a CPU
 * reading percpu_counter_mover as another CPU, the last it wrote being
 * -1; and on per-CPU reads being single-copy atomic).  The fold's add to
 * count is unordered against its other writes for other CPUs
 * (atomic64_add() is relaxed); read() is not checked against the sums.
 * Migration between the fast path's read and its cmpxchg (a cmpxchg on
 * the new CPU's delta, which fails or adds within the batch, as the
 * same-CPU one), and of any reader but scenario 1's; interrupts other
 * than CPU 0's one NMI, and gen wrapping; more than one counter (the
 * mover is global: its moves are one at a time, and a sum of another
 * counter finds that counter's gens even); limited_add's fast path and
 * rough checks (it always takes the exact sum), and the rough checks of
 * __percpu_counter_compare().
 *
 * Planted bugs, -DMUTANT_x (ktest/mutants/ patch: macro, scenario):
 *  fold-claims-unchecked.patch        FOLD_CLAIMS_UNCHECKED        1, 5
 *  sum-reads-count.patch              SUM_READS_COUNT              1-4
 *  sum-no-gen-check.patch             SUM_NO_GEN_CHECK             1-3
 *  limited-add-rough.patch            LIMITED_ADD_ROUGH            3
 *  limited-add-unlocked-update.patch  LIMITED_ADD_UNLOCKED_UPDATE  3
 *  limited-add-keeps-full-delta.patch LIMITED_ADD_KEEPS_FULL_DELTA 3
 *  sum-online-only.patch              SUM_ONLINE_ONLY              4
 *  set-writes-count.patch             SET_WRITES_COUNT             2
 *  (sum reads base after the CPUs)    SUM_READS_BASE_LAST          2
 *  (sum does not read base again)     SUM_NO_BASE_RECHECK          2
 *  (first gen++ a load and a store)   GEN_INC_PLAIN                1
 *  (shortcut, interrupts on or off)   READER_SHORTCUT_ANY_CONTEXT  1
 *  (move_dead() sets no mover)        NO_MOVER                     4
 *  (move_dead(): folded, then delta)  MOVE_DEAD_FOLDED_FIRST       4
 *  (nested fold: fbc->count alone)    NESTED_FOLD_TO_COUNT         1
 *  (mover: any CPU's odd gen its own) MOVER_ANY_CPU                4 (3 CPUs)
 *  (fold's add to folded plain)       FOLDED_ADD_PLAIN             1
 *  (NMI, odd gen: folded + delta)     NMI_TAKES_DELTA              1
 */

#ifndef NCPU
#define NCPU 2
#endif
#ifndef SCENARIO
#define SCENARIO 1
#endif
/* Scenario 4's nested context is a debug exception: in_nmi() false */
#if SCENARIO == 4 && NCPU == 2
#define DBGEXC	1
#else
#define DBGEXC	0
#endif
#define B	3
#define NADD	7
#define SETVAL	10
#define NOCPU	255	/* -1: no CPU */

short count;
short base;
short delta[NCPU];
byte gen[NCPU];
short folded[NCPU];
bit lock;
bit nmi[NCPU];
bit offline[NCPU];	/* dead before the scenario: cpu_dead() is to run */
byte mover = NOCPU;	/* percpu_counter_mover */
bit cli[NCPU];		/* CPU c's task is in a fold: interrupts off */
bit clidead;		/* cpu_dead() runs, interrupts off, on its CPU */
#if SCENARIO == 1 && NCPU == 2
bit canmig, mig;	/* CPU 1's sum may migrate to CPU 0, did */
#endif

/* Ghost: add i adds amt[i]; bit i of gstart/gdone once begun/completed */
short amt[NADD];
byte gstart;
byte gdone;
byte gdel[NCPU];	/* the adds in delta[c] */
byte gfol[NCPU];	/* the adds in folded[c] */
byte gx[NCPU];		/* the adds a fold of CPU c took and has not folded */
short gnd;		/* the NMI's part of delta[0]: its adds since a fold */
byte gseen;		/* the adds in the CPUs set() read */
bit gset;		/* set() stored its base */
byte gpre;		/* the adds begun when set() stored its base */

#define BIT(id)		(1 << (id))
/*
 * Is CPU @i's odd gen a fold or move that CPU @me makes (if the reader is
 * nested in it)?  Its own, or the dead CPU's that it moves (the mover and
 * the moved CPU; -DMUTANT_MOVER_ANY_CPU: any CPU's, once it is the mover)
 */
#ifdef MUTANT_MOVER_ANY_CPU
#define NESTED(i, me)	((i) == (me) || mover == (me))
#else
#define NESTED(i, me)	((i) == (me) || (mover == (me) && offline[i]))
#endif
#define FITS(v)		((v) <= B && (v) >= -B)
#define FULL(v)		((v) >= B || (v) <= -B)	/* abs(v) >= batch: fold */

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
 * @l, less those of a subset of mm (an NMI's sum that missed adds that
 * set() read) (NADD <= 7: the masks stay below 128, m and n below 256)
 */
inline check(s, e, l, g)
{
	d_step {
		hi = (g) & ~(l);
		n = 0;
		do
		:: n <= mm ->
			if
			:: (n & ~mm) == 0 ->
				value(n, w);
				m = 0;
				do
				:: m <= hi ->
					if
					:: (m & ~hi) == 0 ->
						value(m, v);
						if
						:: s == e - w + v -> ok = 1
						:: else
						fi
					:: else
					fi;
					m++
				:: else -> break
				od
			:: else
			fi;
			n++
		:: else -> break
		od;
		assert(ok);
		hi = 0; m = 0; n = 0; mm = 0; ok = 0; v = 0; w = 0; j = 0; g = 0
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

/* Into the NMI's part of delta[@c] (CPU 0's only) */
inline nmi_delta(c, a, in_nmi)
{
	if
	:: in_nmi -> gnd = gnd + a
	:: else
	fi
}

/* this_cpu_xchg(delta[@c], 0), into t: the NMI's part goes too */
inline take_delta(c)
{
	t = delta[c]; delta[c] = 0; gx[c] = gdel[c]; gdel[c] = 0;
	if
	:: c == 0 -> gnd = 0
	:: else
	fi
}

/*
 * percpu_counter_move() on CPU @c, add number @id of @a.  gn: gen as read
 * for the check (and, -DMUTANT_GEN_INC_PLAIN, the load of gen++).
 * cli[c]: a task's fold holds its CPU with interrupts off (set with the
 * first step, cleared with the last: nothing shared between them and
 * local_irq_save()/restore()).
 */
inline fold(c, a, id, in_nmi)
{
#ifndef MUTANT_GEN_INC_PLAIN
	/*
	 * __this_cpu_read(gen), then this_cpu_inc(gen), one RMW: an NMI
	 * between them folds in full, as one before both would
	 */
	d_step {
		if
		:: !in_nmi -> cli[c] = 1
		:: else
		fi;
		gn = gen[c];
		if
		:: (gn & 1) == 0 -> gen[c] = gn + 1
		:: else
		fi
	};
#else
	/* The load of a plain __this_cpu_inc(gen): an NMI may follow it */
	d_step {
		if
		:: !in_nmi -> cli[c] = 1
		:: else
		fi;
		gn = gen[c]
	};
#endif
	if
	:: (gn & 1) == 1 ->
		/*
		 * An NMI in its CPU's own fold: this_cpu_add(folded, amount),
		 * one RMW, as the fold's own add to folded
		 */
		d_step {
#ifdef MUTANT_NESTED_FOLD_TO_COUNT
			gn = 0	/* fbc->count alone */
#else
			folded[c] = folded[c] + a;
			gfol[c] = gfol[c] | BIT(id);
			gn = 0
#endif
		};
		/* atomic64_add(amount, &fbc->count) */
		d_step {
			count = count + a;
			gdone = gdone | BIT(id);
			if
			:: !in_nmi -> cli[c] = 0
			:: else
			fi
		}
	:: else ->
#ifdef MUTANT_GEN_INC_PLAIN
		/*
		 * Its store: odd, over whatever an NMI's fold wrote since
		 * the load (its two gen++ lost); smp_wmb()
		 */
		d_step { gen[c] = gn + 1; gn = 0 };
#else
		gn = 0;
#endif
#ifdef MUTANT_FOLD_CLAIMS_UNCHECKED
		/* A plain read, then a plain reset: an NMI's add in between is lost */
		d_step { t = delta[c]; gx[c] = gdel[c] };
		d_step {
			delta[c] = 0; gdel[c] = 0;
			if
			:: c == 0 -> gnd = 0
			:: else
			fi
		};
#else
		d_step { take_delta(c) };	/* this_cpu_xchg() */
#endif
#ifdef MUTANT_FOLDED_ADD_PLAIN
		/* A load, then a store: a nested fold's add between is lost */
		y = folded[c];
		d_step {
			folded[c] = y + t + a;
			gfol[c] = gfol[c] | gx[c] | BIT(id);
			gx[c] = 0; y = 0
		};
#else
		/* this_cpu_add(folded), one RMW: a nested fold adds there too */
		d_step {
			folded[c] = folded[c] + t + a;
			gfol[c] = gfol[c] | gx[c] | BIT(id);
			gx[c] = 0
		};
#endif
		/* smp_wmb(); __this_cpu_inc(gen): even; no other writer */
		gen[c] = gen[c] + 1;
		d_step {
			count = count + t + a; gdone = gdone | BIT(id); t = 0;
			if
			:: !in_nmi -> cli[c] = 0
			:: else
			fi
		}
	fi
}

/* percpu_counter_add_batch() of @a on CPU @c, add number @id */
inline add(c, a, id, in_nmi)
{
	d_step {
		amt[id] = a;
		gstart = gstart | BIT(id);
		t = delta[c];
		ok = FULL(t + a)
	};
	do
	:: ok -> ok = 0; t = 0; rt = 0; fold(c, a, id, in_nmi); break
	:: else ->
		d_step {	/* this_cpu_try_cmpxchg() */
			if
			:: delta[c] == t ->
				delta[c] = t + a;
				gdel[c] = gdel[c] | BIT(id);
				nmi_delta(c, a, in_nmi);
				gdone = gdone | BIT(id);
				t = 0; rt = 0; dn = 1
			:: else ->
				/* The NMI added or folded in between: once */
				assert(c == 0 && !in_nmi && !rt);
				rt = 1;
				t = delta[c];
				ok = FULL(t + a)
			fi
		};
		if
		:: dn -> dn = 0; break
		:: else
		fi
	od
}

/* The amount @a, @x or @y: one for the fast path, one that folds */
inline nmi_amount(a, x, y) { if :: a = x :: a = y fi }

/* After a task's fold on CPU @c: its delta is the NMI's adds since */
inline assert_folded(c)
{
	d_step {
		v = delta[c];
		assert(v == 0 || (c == 0 && v == gnd));
		v = 0
	}
}

/* |delta[@c]| <= B, unless the NMI's adds pushed it */
inline assert_fits(c)
{
	d_step {
		v = delta[c];
		assert(FITS(v) || (c == 0 && FITS(v - gnd)));
		v = 0
	}
}

/*
 * percpu_counter_cpu_sum() of CPU i on CPU @me, then i++: @acc += @sg
 * times it, @gacc |= the adds it counted (gs as @gacc: none); @irq:
 * interrupts disabled (irqs_disabled()); @innmi: in_nmi(); gm |= the adds
 * an NMI's sum may miss on a CPU whose fold it does not wait for
 */
inline cpu_sum(me, irq, innmi, acc, sg, gacc)
{
#ifdef MUTANT_SUM_NO_GEN_CHECK
	/* folded + delta, read once, whatever gen says */
	if
	:: y = folded[i];
		d_step { y = y + delta[i]; gs = gfol[i] | gdel[i] }
#ifndef FOLDED_FIRST
	:: d_step { y = delta[i]; gs = gfol[i] | gdel[i] };
		y = y + folded[i]
#endif
	fi;
	d_step { acc = acc + sg * y; gacc = gacc | gs; y = 0; gs = 0; i++ }
#else
	do
	:: gn = gen[i];		/* READ_ONCE(pc->gen); smp_rmb() */
		/*
		 * READ_ONCE(pc->folded), READ_ONCE(pc->delta), in either
		 * order (no barrier between them); gs: the adds in them when
		 * the delta is read (folded does not move while gen does
		 * not); yf, gf: folded alone, and the adds in it, gms: the
		 * CPU's others (its delta, what its fold took), when read
		 */
		if
		:: d_step { yf = folded[i]; gf = gfol[i]; gms = gdel[i] | gx[i] };
			d_step { y = yf + delta[i]; gs = gfol[i] | gdel[i] }
#ifndef FOLDED_FIRST
		:: d_step { y = delta[i]; gs = gfol[i] | gdel[i] };
			d_step {
				yf = folded[i]; gf = gfol[i]; gms = gdel[i] | gx[i];
				y = y + yf
			}
#endif
		fi;
		if
		:: (gn & 1) == 0 ->
			d_step {	/* smp_rmb(); gen again */
				if
				:: gen[i] == gn ->
					acc = acc + sg * y;
					gacc = gacc | gs;
					ok = 1;
					i++
				:: else
				fi;
				y = 0; gs = 0; gn = 0; yf = 0; gf = 0; gms = 0
			};
			if
			:: ok -> ok = 0; break
			:: else
			fi
#if defined(MUTANT_READER_SHORTCUT_ANY_CONTEXT)
		/* Odd, whatever the context: a preemptible reader too */
		:: (gn & 1) == 1 && NESTED(i, me) ->
#else
		:: (gn & 1) == 1 && irq && NESTED(i, me) ->
#endif
			/*
			 * Its own CPU's fold, or the move_dead() it runs
			 * (raw_smp_processor_id(); READ_ONCE(mover)),
			 * interrupted by the NMI: at once
			 */
			d_step {
				acc = acc + sg * y; gacc = gacc | gs;
				y = 0; gs = 0; gn = 0; yf = 0; gf = 0; gms = 0; i++
			};
			break
		:: (gn & 1) == 1 && innmi && !(irq && NESTED(i, me)) ->
			/*
			 * An NMI never waits: the folded part alone (with the
			 * delta, read before, it could count the delta twice)
			 */
			d_step {
#ifdef MUTANT_NMI_TAKES_DELTA
				acc = acc + sg * y; gacc = gacc | gs;
#else
				acc = acc + sg * yf; gacc = gacc | gf;
#endif
				gm = gm | gms;
				y = 0; gs = 0; gn = 0; yf = 0; gf = 0; gms = 0; i++
			};
			break
		:: else ->
			/*
			 * A fold over there in flight: cpu_relax() and again
			 * until gen moves.  A blocking guard: a wait that can
			 * last forever is an invalid end state.
			 */
			d_step { y = 0; gs = 0; yf = 0; gf = 0; gms = 0 };
			gen[i] != gn;
			gn = 0
		fi
	od
#endif
}

/*
 * percpu_counter_exact() on CPU @me into @s, with the adds done at the
 * call (of the pass that returns) in @l; @in_nmi: the NMI's; @irq:
 * interrupts disabled
 */
inline exact(s, l, sb, in_nmi, me, irq)
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
#if defined(MUTANT_SUM_READS_COUNT)
			d_step { s = s + delta[i]; i++ }
#elif defined(MUTANT_SUM_ONLINE_ONLY)
			if
			:: offline[i] -> i++
			:: else -> cpu_sum(me, irq, in_nmi && !DBGEXC, s, 1, gs)
			fi
#else
			cpu_sum(me, irq, in_nmi && !DBGEXC, s, 1, gs)
#endif
		:: else -> i = 0; break
		od;
#ifdef MUTANT_SUM_READS_BASE_LAST
		/* set() may have read the CPUs before the sum read them */
		atomic { s = s + base; sb = gset; b = base };
#endif
#ifdef MUTANT_SUM_NO_BASE_RECHECK
		/* The base read before a set, the CPUs after it */
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
				assert(!in_nmi && !rt);
				rt = 1
			fi;
			b = 0
		};
		if
		:: ok -> ok = 0; rt = 0; break
		:: else
		fi
#endif
	od
}

/*
 * __percpu_counter_sum() on CPU @me into @s, checked; @in_nmi: the NMI's
 * (interrupts off; other sums: on), which may miss the adds that the fold
 * or move_dead() it interrupted took (gx of its CPU, of a dead CPU the
 * move of which runs on its CPU)
 */
inline sum(s, in_nmi, me)
{
	exact(s, lo, sb, in_nmi, me, in_nmi);
	if
	:: in_nmi ->
		d_step {
			/* The adds set() read count in its value: they may go */
			if
			:: sb -> mm = gm & gseen
			:: else
			fi;
			lo = lo & ~gm;
			gm = 0;
			i = 0;
			do
			:: i < NCPU ->
				if
				:: i == me || (offline[i] && mover == me) ->
					lo = lo & ~gx[i]
				:: else
				fi;
				i++
			:: else -> i = 0; break
			od
		}
	:: else
	fi;
	check_sum(s, lo, sb);
	s = 0; lo = 0; sb = 0
}

/* percpu_counter_sync() on CPU @c, as add number @id of 0 */
inline sync(c, id)
{
	d_step { amt[id] = 0; gstart = gstart | BIT(id) };
	fold(c, 0, id, 0);
	assert_folded(c)
}

/* percpu_counter_set() on CPU 0 */
inline set(val)
{
	lock_acquire();
	b = val;
	i = 0;
	do
	:: i < NCPU -> cpu_sum(0, 1, 0, b, -1, gl)
	:: else -> i = 0; break
	od;
#ifdef MUTANT_SET_WRITES_COUNT
	/* atomic64_set(), as 6.12: the deltas pending stay on the CPUs */
	count = val;
#else
	count = count + b - base;	/* base is stable under fbc->lock */
#endif
	/* smp_store_release(); smp_wmb() */
	d_step { base = b; gset = 1; gpre = gstart; gseen = gl; gl = 0; b = 0 };
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
	exact(s, lo, sb, 0, c, 1);
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
		t = delta[c];	/* __this_cpu_read() */
		if
#ifdef MUTANT_LIMITED_ADD_KEEPS_FULL_DELTA
		/* Into the delta, whether it fits or not */
		:: false
#else
		:: !FITS(t + a) -> t = 0; fold(c, a, id, 0); assert_folded(c)
#endif
		:: else ->
			/* this_cpu_add() to the delta, as the fast path adds */
			d_step {
				t = 0;
				delta[c] = delta[c] + a;
				gdel[c] = gdel[c] | BIT(id);
				gdone = gdone | BIT(id)
			}
		fi;
		assert_fits(c)
	:: else
	fi;
	lock_release()
}

/*
 * percpu_counter_cpu_dead() on live CPU @me, for CPU @d: interrupts off
 * (spin_lock_irq()), then percpu_counter_move_dead() under fbc->lock.
 * The mover is set before gen turns odd and reset after it turns even
 * (-DMUTANT_NO_MOVER: never set)
 */
inline cpu_dead(d, me)
{
	clidead = 1;
	lock_acquire();
	t = delta[d];		/* nothing writes the dead CPU's slot */
#ifndef MUTANT_NO_MOVER
	mover = me;		/* WRITE_ONCE(percpu_counter_mover, ...) */
#endif
	gen[d] = gen[d] + 1;	/* WRITE_ONCE(); smp_wmb() */
#ifdef MUTANT_MOVE_DEAD_FOLDED_FIRST
	/* An NMI between them counts the delta twice */
	d_step { folded[d] = folded[d] + t; gfol[d] = gfol[d] | gdel[d] };
	d_step { delta[d] = 0; gdel[d] = 0 };
#else
	/*
	 * As a fold: the delta taken, then added to the folded part (an
	 * NMI between them, on this CPU, may miss it: gx)
	 */
	d_step { delta[d] = 0; gx[d] = gdel[d]; gdel[d] = 0 };
	d_step { folded[d] = folded[d] + t; gfol[d] = gfol[d] | gx[d]; gx[d] = 0 };
#endif
	gen[d] = gen[d] + 1;	/* smp_wmb(); WRITE_ONCE() */
#ifndef MUTANT_NO_MOVER
	mover = NOCPU;
#endif
	d_step { count = count + t; t = 0 };
	d_step { lock_release(); clidead = 0 }	/* spin_unlock_irq() */
}

#define LOCALS	bit ok, rt, sb, dn; byte i, j, m, hi, lo, g, gn, gs, gl, gf, \
		gms, gm, n, mm; short s, t, a, v, b, e, y, yf, w

/*
 * What the task on CPU c, its NMI, cpu_dead() on live CPU DEADON (OTHER)
 * and the scheduler (SCHED) run, per scenario.  Adds 0, 1 and 6 are done
 * before the start.
 */
#if SCENARIO == 1
#define TASK0	nmi_amount(a, 1, 2); add(0, a, 2, 0)
#if NCPU == 2
/*
 * On the fast path then folding (1 + 1), or folding then on the fast
 * path (3 + 1), then a sum
 */
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1); add(0, 1, 5, 1); \
		sum(s, 1, 0)
#else
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1)
#endif
#if NCPU == 2
/*
 * CPU 1's sum, preemptible (interrupts on), may go on on CPU 0 once no
 * fold runs there: raw_smp_processor_id() as it is at the shortcut
 */
#define TASK1	add(1, 1, 4, 0); canmig = 1; sum(s, 0, (mig -> 0 : 1))
#define SCHED	atomic { canmig && !cli[0] && !nmi[0] -> mig = 1 }
#else
#define TASK1	add(1, 1, 4, 0); sum(s, 0, 1)
#endif
#define TASK2	add(2, 3, 5, 0)
#elif SCENARIO == 2
#define TASK0	set(SETVAL)
#if NCPU == 2
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1); sum(s, 1, 0)
#define TASK1	nmi_amount(a, -1, 1); add(1, a, 4, 0); sum(s, 0, 1)
#else
#define NMI0	add(0, 1, 3, 1)
#define TASK1	add(1, 1, 4, 0); sum(s, 0, 1)
#define TASK2	add(2, 1, 5, 0)
#endif
#elif SCENARIO == 3
#define LIMIT	(NCPU + 3)
#define TASK0	limited_add(0, 2, 2, LIMIT)
#define NMI0	nmi_amount(a, -1, -6); add(0, a, 3, 1)
#define TASK1	limited_add(1, 2, 4, LIMIT)
#define TASK2	limited_add(2, 2, 5, LIMIT)
#elif SCENARIO == 4
#define DEAD	(NCPU - 1)
/*
 * On CPU 0, where the NMI (NCPU 2: a debug exception) may nest in it, and
 * its sum takes the dead CPU's odd gen as the move it interrupted; NCPU 3:
 * not CPU 1's odd gen in its fold
 */
#define DEADON	0
#define TASK0	add(0, 2, 2, 0)
#define NMI0	sum(s, 1, 0)
#define OTHER	cpu_dead(DEAD, DEADON)	/* its hotplug callback */
#if NCPU > 2
#define TASK1	add(1, 2, 4, 0)
#endif
#elif SCENARIO == 5
#define TASK0	sync(0, 2)
#define NMI0	nmi_amount(a, 1, 3); add(0, a, 3, 1)
#define TASK1	add(1, 1, 4, 0)
#define TASK2	add(2, 3, 5, 0)
#endif

#ifndef DEADON
#define DEADON	NOCPU
#endif
/*
 * The task on CPU @c runs unless the NMI or cpu_dead() (interrupts off)
 * runs there
 */
#define RUNS(c)	(!nmi[c] && !(clidead && DEADON == c))

#ifdef TASK0
proctype task0() provided (RUNS(0)) { LOCALS; TASK0 }
#endif
#ifdef NMI0
proctype nmi0() { LOCALS; nmi[0] = 1; NMI0; nmi[0] = 0 }
#endif
#ifdef TASK1
#ifdef SCHED
/* On CPU 0 after its migration: not while a fold or the NMI runs there */
proctype task1() provided (RUNS(1) && !(mig && (cli[0] || nmi[0])))
{ LOCALS; TASK1 }
proctype sched() { SCHED }
#else
proctype task1() provided (RUNS(1)) { LOCALS; TASK1 }
#endif
#endif
#if NCPU > 2 && defined(TASK2)
proctype task2() provided (RUNS(2)) { LOCALS; TASK2 }
#endif
#ifdef OTHER
/* Not while its CPU's task folds or the NMI runs there (NCPU 2: CPU 0) */
proctype other() provided (!nmi[DEADON] && !cli[DEADON]) { LOCALS; OTHER }
#endif

init {
	LOCALS;

	/* Adds completed before the start, in the deltas: CPU 0 1, CPU 1 2, CPU 2 1 */
	d_step {
		delta[0] = 1; amt[0] = 1; gdel[0] = BIT(0);
		delta[1] = 2; amt[1] = 2; gdel[1] = BIT(1);
		gstart = BIT(0) | BIT(1);
#if NCPU > 2
		delta[2] = 1; amt[6] = 1; gdel[2] = BIT(6);
		gstart = gstart | BIT(6);
#endif
		gdone = gstart;
#ifdef DEAD
		offline[DEAD] = 1;
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
#ifdef SCHED
		run sched();
#endif
	}
	_nr_pr == 1;

	/* Everything done */
	d_step {
		assert(gdone == gstart && mover == NOCPU && !clidead);
		s = base;
		v = base;
		i = 0;
		do
		:: i < NCPU ->
			/* No fold in flight */
			assert((gen[i] & 1) == 0 && gx[i] == 0 && !cli[i]);
			s = s + folded[i] + delta[i];
			v = v + folded[i];
			/* Within the batch, unless the NMI's adds pushed it */
			assert(FITS(delta[i]) || (i == 0 && FITS(delta[i] - gnd)));
			i++
		:: else -> break
		od;
		/* No fold lost from count or counted twice */
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
