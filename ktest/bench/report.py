#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""usage: ktest/bench/report.py [--scale] DIR [KERNELVERSION]
DIR/results.csv (ktest/bench/run.sh) -> DIR/report.md, DIR/summary.csv
and PNG plots (gnuplot): medians with min-max over the rounds, ratios
patched/base and patched/nocpuacct, a verdict per row.
  --scale        the runs of bench/run.sh scale, at several vCPU counts
                 -> DIR/report.md, DIR/scale.csv and DIR/scale.png,
                 per-CPU rates against vCPUs
  KERNELVERSION  the kernel version of a results.csv from before its
                 kernel_version column (default: the rows' own)
"""
# The kernel version, guest arch and QEMU the report names are those its
# rows record (columns kernel_version, arch, qemu); the report of a
# results.csv from before those columns says that arch and QEMU were not
# recorded.
# Runs that gave no figure (DIR/failed.txt) are listed first in the report.
# Which experiments, in what order, under what title: the experiment table,
# ktest/bench/experiments.tsv (ktest/bench/table.py reads it).
import csv
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table as exp_table  # noqa: E402
import usage  # noqa: E402  (ktest/, on the path as table.py put it)

flags, args = usage.parse(__doc__, sys.argv[1:], flags=('--scale',),
			  nargs=(1, 2))
scale = '--scale' in flags
d = args[0]
rows = list(csv.DictReader(open(os.path.join(d, 'results.csv'))))


def recorded(col, what):
	"""What the rows record in column col, or None: no rows, or rows
	from before that column."""
	if not rows or col not in rows[0]:
		return None
	got = list(dict.fromkeys(r[col] for r in rows))
	if len(got) > 1:
		print(f'warning: {d}/results.csv: rows of {len(got)} {what}s: '
		      f'{", ".join(got)}', file=sys.stderr)
	return ', '.join(got)


kver = recorded('kernel_version', 'kernel version')
if len(args) == 2:
	if kver is not None:
		if args[1] != kver:
			sys.exit(f'{d}/results.csv records kernel {kver}, not '
				 f'{args[1]}')
	kver = args[1]
elif kver is None and rows:
	sys.exit(f'{d}/results.csv has no kernel_version column: give the '
		 'version (bench/report.py [--scale] DIR KERNELVERSION)')
arch = recorded('arch', 'arch')
qemu = recorded('qemu', 'QEMU')
# What ran: the first words of both reports.
RUN = ', '.join([f'Kernel {kver}' if kver else 'kernel not recorded',
		 f'{arch} guest' if arch else 'guest arch not recorded',
		 f'QEMU {qemu}' if qemu else 'QEMU not recorded'])
vals = defaultdict(list)
# --scale: values per vCPU count too
svals = defaultdict(list)
unit = {}
meta = {}
# Per row: an experiment in parts (reads: its poll under icount, its
# isolation in real time) has more than one mode.
mode_of = {}
for r in rows:
	key = (r['experiment'], r['metric'], r['kernel'])
	vals[key].append(float(r['value']))
	svals[key + (int(r['vcpus']),)].append(float(r['value']))
	unit[(r['experiment'], r['metric'])] = r['unit']
	meta[r['experiment']] = (r['mode'], r['vcpus'], r['host_cores'])
	mode_of[(r['experiment'], r['metric'])] = (r['mode'], r['vcpus'])
try:
	failed = [ln.strip() for ln in open(os.path.join(d, 'failed.txt'))
		  if ln.strip()]
except OSError:
	failed = []


def med(k, vals=vals):
	v = vals.get(k)
	return statistics.median(v) if v else None


def fmt(k, vals=vals):
	v = vals.get(k)
	if not v:
		return '-'
	m = statistics.median(v)
	# Small costs measured to a fraction (per-call figures) keep it.
	p = 1 if m < 1000 and any(x != int(x) for x in v) else 0
	if len(v) == 1:
		return f'{m:,.{p}f}'
	return f'{m:,.{p}f} [{min(v):,.{p}f}-{max(v):,.{p}f}]'


def better_higher(u):
	return u.endswith('/s')


def verdict(exp, metric, mode, vals=vals, n=()):
	"""Patched against base; n: the vCPU count, for svals."""
	b = vals.get((exp, metric, 'base') + n)
	p = vals.get((exp, metric, 'patched') + n)
	if not b or not p:
		return '-'
	ratio = statistics.median(p) / statistics.median(b) if statistics.median(b) else 0
	if mode == 'icount':
		even = abs(ratio - 1) < 0.001
	else:	# real time: even while the ranges overlap
		even = not (min(p) > max(b) or max(p) < min(b))
	if even:
		return 'even'
	ahead = (ratio > 1) == better_higher(unit[(exp, metric)])
	return 'ahead' if ahead else 'behind'


def ratio(exp, metric, a, b):
	x, y = med((exp, metric, a)), med((exp, metric, b))
	return f'{x / y:.4f}' if x is not None and y else '-'


# The experiments, in order, with their titles and published figures:
# ktest/bench/experiments.tsv.
EXPERIMENTS = exp_table.experiments()


def reported(scale_only=False):
	"""The experiments of the rows, the table's (scale ones: scale_only)
	in its order, then any other the rows have, by name: one the table
	no longer has (poll, isolation of older runs) is reported too, under
	its name, with a warning."""
	known = [e for e, x in EXPERIMENTS.items()
		 if e in meta and (x['scale'] or not scale_only)]
	other = sorted(set(meta) - set(known))
	for e in other:
		print(f'warning: {d}/results.csv: experiment {e} is not '
		      f'{"a scale row" if e in EXPERIMENTS else "a row"} of '
		      'ktest/bench/experiments.tsv: reported last, untitled',
		      file=sys.stderr)
		EXPERIMENTS.setdefault(e, {'title': f'{e} (no row of '
					   'ktest/bench/experiments.tsv names '
					   'it)', 'prior': '-'})
	return known + other


def metrics_of(exp):
	"""The experiment's metrics, numbers in names sorted as numbers."""
	return sorted({m for (e, m, _) in vals if e == exp},
		      key=lambda m: [int(t) if t.isdigit() else t
				     for t in re.split(r'(\d+)', m)])


def failures():
	if not failed:
		return []
	return ['\n## Runs that gave no figure\n',
		'Each of these runs printed no result, so its rows below are '
		'missing or read "-"; why is in its console log, or in the '
		'error that make printed with it.\n'] + \
		[f'- {f}' for f in failed]


# Adds to a plain per-CPU u64: identical code on both kernels.
CONTROL = 'tick_pcpu_u64_adds_per_cpu'


def scale_report():
	cpus = sorted({k[3] for k in svals})
	cores = '/'.join(sorted({r['host_cores'] for r in rows}))
	nrounds = max((int(r['run']) for r in rows), default=0)
	out = ['# make bench-scale report\n']
	if not rows:
		out.append('No run gave a figure.\n')
	else:
		out.append(f'{RUN}; base (stock) '
			   'vs patched (the series) in real time (MTTCG), -smp N '
			   f'for N = {", ".join(map(str, cpus))} on {cores} host '
			   f'cores; {nrounds} rounds, the kernels and vCPU counts '
			   'interleaved within each round. Values: median [min-max] '
			   f'over the rounds. Control: {CONTROL} adds to a plain '
			   'per-CPU u64, identical code on both kernels: its '
			   'patched/base ratio should read 1.00, and how far it '
			   'strays is the noise of the run.\n')
	# A control whose ranges do not overlap: the host was not quiet.
	noisy = []
	for n in cpus:
		if verdict('pcpu', CONTROL, 'realtime', svals, (n,)) in \
				('ahead', 'behind'):
			b = med(('pcpu', CONTROL, 'base', n), svals)
			p = med(('pcpu', CONTROL, 'patched', n), svals)
			noisy.append(f'{n} ({p / b:.2f})')
	if noisy:
		out.append('**Noisy run**: the control row differs between the '
			   'kernels at ' + ', '.join(noisy) + ' vCPUs (patched/'
			   'base): something else ran on the host, and the ratios '
			   'at those counts are not to be trusted.\n')
	out += failures()
	table = [['experiment', 'metric', 'unit', 'vcpus', 'host_cores',
		  'base', 'base_min', 'base_max', 'patched', 'patched_min',
		  'patched_max', 'patched/base', 'verdict']]
	panels = []	# (metric, unit, {kernel: [(n, med, min, max)]})
	for exp in reported(scale_only=True):
		out.append(f'\n## {EXPERIMENTS[exp]["title"]}\n')
		out.append('| metric | unit | vCPUs | base | patched | '
			   'patched/base | patched is |')
		out.append('|---|---|---|---|---|---|---|')
		for m in metrics_of(exp):
			u = unit[(exp, m)]
			line = defaultdict(list)
			for n in cpus:
				b = svals.get((exp, m, 'base', n))
				p = svals.get((exp, m, 'patched', n))
				if not b and not p:
					continue
				bm = statistics.median(b) if b else None
				pm = statistics.median(p) if p else None
				r = f'{pm / bm:.4f}' if bm and pm is not None else '-'
				v = verdict(exp, m, 'realtime', svals, (n,))
				out.append(f'| {m} | {u} | {n} | '
					   f'{fmt((exp, m, "base", n), svals)} | '
					   f'{fmt((exp, m, "patched", n), svals)} | '
					   f'{r} | {v} |')
				table.append([exp, m, u, n, cores] + [
					'' if not x else f(x) for x in (b, p)
					for f in (statistics.median, min, max)] + [r, v])
				for k, x in (('base', b), ('patched', p)):
					if x:
						line[k].append((n, statistics.median(x),
								min(x), max(x)))
			if u.endswith('/s') and line:
				panels.append((m, u, line))
	with open(os.path.join(d, 'scale.csv'), 'w', newline='') as f:
		csv.writer(f).writerows(table)

	# One panel per per-CPU rate: base and patched against vCPUs, with
	# the min-max of the rounds as error bars.
	if panels:
		dat = os.path.join(d, 'scale.dat')
		plots, idx = [], 0
		with open(dat, 'w') as f:
			for m, u, line in panels:
				cmds = []
				for k, pts in line.items():
					f.write(f'# {m} {k}: vcpus median min max\n')
					f.writelines(f'{n} {a:.6g} {lo:.6g} {hi:.6g}\n'
						     for n, a, lo, hi in pts)
					f.write('\n\n')
					lt = 1 if k == 'base' else 2
					cmds.append(f"'{dat}' index {idx} using 1:2:3:4 "
						    f"with yerrorlines lt {lt} title '{k}'")
					idx += 1
				ctl = ' (control)' if m == CONTROL else ''
				plots.append('\n'.join([
					f"set title '{m}{ctl}' noenhanced",
					f"set ylabel '{u}'",
					'plot ' + ', '.join(cmds)]))
		ncol = min(3, len(panels))
		nrow = (len(panels) + ncol - 1) // ncol
		gp = '\n'.join([
			f'set terminal png size {420 * ncol},{370 * nrow + 40}',
			f"set output '{os.path.join(d, 'scale.png')}'",
			f"set multiplot layout {nrow},{ncol} title "
			f"'Linux {kver}, base vs patched: per-CPU rate against "
			f"vCPUs, real time (MTTCG) on {cores} host cores; median, "
			"bars: min-max'",
			'set logscale x 2',
			f'set xrange [{cpus[0] / 1.3}:{cpus[-1] * 1.3}]',
			'set xtics (' + ', '.join(f'"{n}" {n}' for n in cpus) + ')',
			"set xlabel 'vCPUs'",
			'set yrange [0:*]',
			"set format y '%.1s%c'",
			'set key below maxrows 1 samplen 2',
			'set grid'] + plots + ['unset multiplot'])
		subprocess.run(['gnuplot'], input=gp + '\n', text=True, check=True)
		out.append('\n![per-CPU rates against vCPUs](scale.png)\n')
	with open(os.path.join(d, 'report.md'), 'w') as f:
		f.write('\n'.join(out) + '\n')
	print('\n'.join(out))


if scale:
	scale_report()
	sys.exit(0)

out = []
out.append('# make bench report\n')
if not rows:
	out.append('No run gave a figure.\n')
# The kernels, as the report names them; only those that ran are named,
# and an experiment has nocpuacct (but-last) columns only where
# nocpuacct (but-last) ran it.
KERNELS = {'base': 'base (stock)', 'patched': 'patched (the series)',
	   'but-last': 'but-last (the series without cpuacct\'s last patch)',
	   'nocpuacct': 'nocpuacct (stock, CONFIG_CGROUP_CPUACCT=n)'}
ran = {r['kernel'] for r in rows}
out.append(f'{RUN}; '
	   'kernels: ' + ', '.join(v for k, v in KERNELS.items() if k in ran) +
	   '. Values: median [min-max] over '
	   'the rounds. icount rows are one run: guest time counts '
	   'instructions, and with the guest RTC (hence its RNG seed) fixed, '
	   'the same kernel and initramfs repeat to the last digit on one '
	   'vCPU (a rebuilt initramfs moved the ctxsw rows by up to 0.03%), '
	   'not at 64 (reads_poll moved by 0.5%, a single read by the '
	   'interrupts that land in it). Per-CPU rates under icount also count whatever else the '
	   'kernel runs on that CPU meanwhile: the plain per-CPU u64 row runs '
	   'identical code on both kernels.\n')
out += failures()
summary = [['experiment', 'metric', 'unit', 'base', 'patched', 'nocpuacct',
	    'patched/base', 'patched/nocpuacct', 'verdict', 'but-last',
	    'but-last/base']]
for exp in reported():
	mode, vcpus, cores = meta[exp]
	title, prior = EXPERIMENTS[exp]['title'], EXPERIMENTS[exp]['prior']
	out.append(f'\n## {title}\n')
	modes = defaultdict(list)
	for m in metrics_of(exp):
		modes[mode_of[(exp, m)]].append(m)
	if len(modes) == 1:
		out.append(f'Mode: {mode}; {vcpus} vCPUs on {cores} host cores. '
			   f'Published figures: {prior}.\n')
	else:
		out.append('Mode: ' + '; '.join(
			f'{mo}, {n} vCPUs: {", ".join(ms)}'
			for (mo, n), ms in sorted(modes.items())) +
			   f'; on {cores} host cores. Published figures: {prior}.\n')
	noc = any(r['experiment'] == exp and r['kernel'] == 'nocpuacct'
		  for r in rows)
	bl = any(r['experiment'] == exp and r['kernel'] == 'but-last'
		 for r in rows)
	ks = ['base', 'patched'] + ['but-last'] * bl + ['nocpuacct'] * noc
	rs = (['patched/base'] + ['but-last/base'] * bl +
	      ['patched/nocpuacct'] * noc)
	out.append('| ' + ' | '.join(['metric', 'unit'] + ks + rs +
				     ['patched is']) + ' |')
	out.append('|---' * (len(ks) + len(rs) + 3) + '|')
	for m in metrics_of(exp):
		u = unit[(exp, m)]
		v = verdict(exp, m, mode_of[(exp, m)][0])
		out.append('| ' + ' | '.join(
			[m, u] + [fmt((exp, m, k)) for k in ks] +
			[ratio(exp, m, *r.split('/')) for r in rs] + [v]) + ' |')
		summary.append([exp, m, u] + [str(med((exp, m, k)) or '')
					      for k in ('base', 'patched', 'nocpuacct')] +
			       [ratio(exp, m, 'patched', 'base'),
				ratio(exp, m, 'patched', 'nocpuacct'), v,
				str(med((exp, m, 'but-last')) or ''),
				ratio(exp, m, 'but-last', 'base')])

with open(os.path.join(d, 'summary.csv'), 'w', newline='') as f:
	csv.writer(f).writerows(summary)

# Plot: switches/s vs depth, one line per kernel.
dat = os.path.join(d, 'ctxsw.dat')
depths = sorted({int(m[len('ctxsw_depth'):]) for (e, m, _) in vals
		 if e == 'ctxsw' and m.startswith('ctxsw_depth')})
if depths:
	with open(dat, 'w') as f:
		f.write('# depth base patched nocpuacct\n')
		for dep in depths:
			row = [med(('ctxsw', f'ctxsw_depth{dep}', k)) for k in
			       ('base', 'patched', 'nocpuacct')]
			f.write(f'{dep} ' + ' '.join('NaN' if x is None else f'{x:.0f}'
						     for x in row) + '\n')
	# nocpuacct has no groups: its depth-0 rate is the floor, a flat line.
	floor = med(('ctxsw', 'ctxsw_depth0', 'nocpuacct'))
	plots = [f"'{dat}' using 1:2 with linespoints title 'base ({kver})'",
		 f"'{dat}' using 1:3 with linespoints title 'patched'"]
	if floor:
		plots.append(f"{floor} with lines dashtype 2 title 'nocpuacct (floor)'")
	gp = '\n'.join([
		'set terminal png size 800,500',
		f"set output '{os.path.join(d, 'ctxsw.png')}'",
		"set title 'Context switches per guest-second vs cpuacct depth (-icount shift=0)'",
		"set xlabel 'cgroup depth'",
		"set ylabel 'switches/s'",
		'set key bottom left',
		'set grid',
		'set offsets 0, 0, 400, 400',
		'plot ' + ', '.join(plots)])
	subprocess.run(['gnuplot'], input=gp + '\n', text=True, check=True)
	out.append('\n![context switches vs depth](ctxsw.png)\n')

with open(os.path.join(d, 'report.md'), 'w') as f:
	f.write('\n'.join(out) + '\n')
print('\n'.join(out))
