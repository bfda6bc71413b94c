#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""usage: ktest/run/ktap-summary.py LOG...
Count the KTAP results of each LOG (a guest's console, or a section of
host checks) and end with one line "N passed, N failed[, N skipped]"
over them all (after one such line per LOG when there are several).
Exit 1 on any failure, on a job that did not finish or exited non-zero,
on a kernel splat on a guest console, or when no test ran.
"""
# Counted over the leaf tests: a result with subtests counts through
# them, except that a failed parent whose subtests all passed (a test
# program that crashed, timed out or lost results) is one failure, and so
# is a subtest whose plan promised more results than it printed.  A job
# that did not finish has no "ktest: MODE done" line (hang or panic); one
# that exited non-zero, "ktest: MODE done, exit N" (the guest's /init).
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import usage  # noqa: E402

logs = usage.parse(__doc__, sys.argv[1:], nargs=(1, None))[1]

START = re.compile(r'^ktest: \S+ start$')
DONE = re.compile(r'^ktest: \S+ done(?:, exit (\d+))?')
RESULT = re.compile(r'^( *)(not ok|ok) (\d+)\b ?(?:- )?(.*)$')
PLAN = re.compile(r'^( *)1\.\.(\d+)')
# The guest's list of kernel splats, which it checks its dmesg for.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
		       '..', 'guest', 'splats.txt')) as f:
	SPLAT = re.compile('|'.join(l for l in f.read().splitlines()
				    if l and not l.startswith('#')))


def count(lines, log):
	"""Return (passed, failed, skipped, failure names) for one KTAP stream."""
	passed = failed = skipped = 0
	names = []
	# Per indentation level: (plan, results seen, child results seen,
	# child failures seen)
	levels = {}
	for line in lines:
		m = PLAN.match(line)
		if m:
			levels[len(m.group(1))] = [int(m.group(2)), 0, 0, 0]
			continue
		m = RESULT.match(line)
		if not m:
			continue
		depth, ok, desc = len(m.group(1)), m.group(2) == 'ok', m.group(4)
		lvl = levels.setdefault(depth, [None, 0, 0, 0])
		lvl[1] += 1
		# Children: the results printed deeper since our last result.
		kids = [d for d in levels if d > depth]
		nkids = sum(levels[d][1] for d in kids)
		kid_fail = sum(levels[d][3] for d in kids)
		for d in kids:
			plan, seen = levels[d][0], levels[d][1]
			if plan is not None and seen < plan:
				failed += 1
				names.append(f'{desc}: {seen} of {plan} results')
			del levels[d]
		skip = re.search(r'#\s*SKIP', desc, re.I) is not None
		if nkids == 0:
			if not ok:
				failed += 1
				lvl[3] += 1
				names.append(desc)
			elif skip:
				skipped += 1
			else:
				passed += 1
		elif not ok:
			lvl[3] += 1
			if kid_fail == 0:
				failed += 1
				names.append(desc)
	for d, (plan, seen, _, _) in levels.items():
		if plan is not None and seen < plan:
			failed += 1
			names.append(f'{log}: {seen} of {plan} results at depth {d}')
	return passed, failed, skipped, names


def counts(passed, failed, skipped):
	line = f'{passed} passed, {failed} failed'
	return line + f', {skipped} skipped' if skipped else line


passed = failed = skipped = 0
for log in logs:
	lines = open(log, errors='replace').read().splitlines()
	# The job's own KTAP lies between its start and done lines.
	start = next((i for i, l in enumerate(lines) if START.match(l)), -1)
	end = next((i for i, l in enumerate(lines) if DONE.match(l)), None)
	status = DONE.match(lines[end]).group(1) if end is not None else None
	p, f, s, names = count(lines[start + 1:end], log)
	for n in names:
		print(f'FAILED: {n}')
	if end is None:
		print(f'FAILED: {log}: the job did not finish (hang or panic)')
		f += 1
	elif status not in (None, '0'):
		print(f'FAILED: {log}: the job exited {status}')
		f += 1
	# Kernel messages, not the guest's (indented or '#') test output.
	splats = [l for l in lines if SPLAT.search(l) and not l.startswith((' ', '#'))]
	if splats:
		print(f'FAILED: {log}: kernel splat on the console:\n  ' +
		      '\n  '.join(splats[:10]))
		f += 1
	if len(logs) > 1:
		print(f'{os.path.basename(log)}: {counts(p, f, s)}')
	passed, failed, skipped = passed + p, failed + f, skipped + s

print(counts(passed, failed, skipped))
sys.exit(1 if failed or passed + skipped == 0 else 0)
