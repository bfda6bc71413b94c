#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""usage: ktest/bench/table.py rows|names
The experiment table, ktest/bench/experiments.tsv; a line that is not as
its header comment says is named, exit 1.
  rows   the rows make bench runs, tab-separated: name, job (QUICK=1: the
         quick one), mode, vcpus, kernels (space-separated), kparams,
         scale
  names  the experiments, in the table's order
Environment: QUICK=1, rows: each row's quick job (default: unset)
"""
# The table's one reader on the host (the guest's ktest/guest/bench.sh
# only looks a job up in it); bench/report.py imports experiments().
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import usage  # noqa: E402

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
		     'experiments.tsv')
COLUMNS = ['name', 'job', 'quick', 'mode', 'vcpus', 'kernels', 'kparams',
	   'scale', 'title', 'prior']
MODES = ('icount', 'realtime')
# The kernels make bench builds; make bench-scale builds base and patched.
KERNELS = ('base', 'patched', 'but-last', 'nocpuacct')
SCALE_KERNELS = ('base', 'patched')


def rows(path=TABLE):
	"""The table's rows, in order, each a dict of COLUMNS; exits naming
	the line of a row that is not as the table's header says."""
	out = []
	header = None
	for i, ln in enumerate(open(path), 1):
		ln = ln.rstrip('\n')
		if not ln.strip() or ln.startswith('#'):
			continue
		f = ln.split('\t')
		where = f'{path}:{i}'
		if header is None:
			if f != COLUMNS:
				sys.exit(f'{where}: the header is not the columns '
					 f'{", ".join(COLUMNS)}, tab-separated')
			header = f
			continue
		if len(f) != len(COLUMNS) or '' in f:
			sys.exit(f'{where}: {len(f)} fields, not {len(COLUMNS)} '
				 'tab-separated non-empty ones ("-" for none)')
		r = dict(zip(COLUMNS, f))
		job = r['job'].split(',')[0]
		kernels = r['kernels'].split(',')
		bad = []
		if r['quick'] != '-' and r['quick'].split(',')[0] != job:
			bad.append(f'quick runs {r["quick"].split(",")[0]}, not {job}')
		if r['mode'] not in MODES:
			bad.append(f'mode {r["mode"]}: one of {", ".join(MODES)}')
		if not (r['vcpus'].isdigit() and int(r['vcpus']) > 0 or
			r['vcpus'] == 'SMP'):
			bad.append(f'vcpus {r["vcpus"]}: a count or SMP')
		if not set(kernels) <= set(KERNELS) or \
				len(set(kernels)) != len(kernels):
			bad.append(f'kernels {r["kernels"]}: some of '
				   f'{",".join(KERNELS)}, each once')
		if r['scale'] not in ('yes', 'no'):
			bad.append(f'scale {r["scale"]}: yes or no')
		if r['scale'] == 'yes' and (r['mode'] != 'realtime' or
					    not set(kernels) <= set(SCALE_KERNELS)):
			bad.append('scale rows are realtime, on '
				   f'{" and ".join(SCALE_KERNELS)}')
		first = not any(o['name'] == r['name'] for o in out)
		if out and not first and out[-1]['name'] != r['name']:
			bad.append(f'{r["name"]}: its parts are not together')
		if first and r['title'] == '-':
			bad.append(f'{r["name"]}: no title on its first row')
		if not first and (r['title'], r['prior']) != ('-', '-'):
			bad.append(f'{r["name"]}: a later part has a title or '
				   'prior ("-": its first row\'s)')
		if bad:
			sys.exit(f'{where}: ' + '; '.join(bad))
		out.append(r)
	if header is None:
		sys.exit(f'{path}: no header line')
	return out


def experiments(path=TABLE):
	"""name -> its first row, in the table's order, with 'scale' true
	when a part of it runs in make bench-scale."""
	exps = {}
	for r in rows(path):
		e = exps.setdefault(r['name'], dict(r, scale=False))
		e['scale'] = e['scale'] or r['scale'] == 'yes'
	return exps


def main(args):
	args = usage.parse(__doc__, args, nargs=(1, 1))[1]
	if args == ['rows']:
		quick = bool(os.environ.get('QUICK'))
		for r in rows():
			job = r['quick'] if quick and r['quick'] != '-' else r['job']
			print('\t'.join([r['name'], job, r['mode'], r['vcpus'],
					 r['kernels'].replace(',', ' '), r['kparams'],
					 r['scale']]))
	elif args == ['names']:
		print('\n'.join(experiments()))
	else:
		usage.error(__doc__, f'unknown argument {args[0]}')


if __name__ == '__main__':
	main(sys.argv[1:])
