# scripts/gpu-check.d/setup.sh — scripts/gpu-check's mode `setup` (issue 23): where the set-up of a
# 10^6-atom `tribody run` of examples/liquid.cfg goes, before and after, and that the outputs are
# the same bytes. Sourced by scripts/gpu-check (B, W, S, OUT, say in scope).
#   · a random start (the liquid: density 0.8, min distance 0.9, seed 9) at n = 10^6 and an fcc
#     lattice at n = 4 * 63^3 = 1000188, thermo every 100, trajectory and checkpoint every 1000,
#     a few steps, deterministic; set-up = process wall - the stepping time the run prints
#     (overhead.sh's measure), and the phases of it from TRIBODY_TIMES=1 (common/phase.h), for
#     build/tribody-base (main with the marks alone, $TB_BASE: the "before") and the new build
#   · cmp of the thermo file, the trajectory (the step-0 frame: positions, velocities) and the
#     checkpoint of build/tribody-prev (main, $TB_PREV) and the new build, and of base and new
#   · the random start again with system.init.placement = "parallel" (solver/io/init_par.c; the
#     new build only: other positions), on all cores and on one (OMP_NUM_THREADS=1): its phases,
#     its set-up, and the outputs of the two cmp-identical (the same positions for any thread
#     count); the placement's rounds and candidates (TB_INIT_PAR_STATS=1)
# GPU_CHECK_BACKEND=cpu: a dry run on a machine without a GPU (n = 20000 and 4 * 17^3 = 19652, ATM
# cutoff 1.1, 4 OpenMP threads so that the draws' windows run).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
BASE=${TB_BASE:-build/tribody-base}
[ -x "$P" ] || { say "FAIL: no $P (main's binary, for the cmp)"; P=""; }
[ -x "$BASE" ] || { say "note: no $BASE (main with the marks): no breakdown before"; BASE=""; }
lq="$PWD/examples/liquid.cfg"
if [ "$BE" = cpu ]; then nr=20000; nl=19652; k=2; xs="--set potential.atm.cutoff=1.1"
  export OMP_NUM_THREADS=4 # the draws' windows start at 4 threads (init_draws.c)
else nr=1000000; nl=1000188; k=10; xs=""; fi
box() { python3 -c "print(repr(($1 / 0.8) ** (1 / 3)))"; }
# one run: bin tag n init [placement [threads]]; leaves $W/su_TAG/ with out.txt, err.txt (the
# marks) and the outputs
one_run() {
  local bin=$1 tag=$2 n=$3 init=$4 d="$W/su_$2" pl=() cf="$W/liquid_noplace.cfg"
  # examples/liquid.cfg sets placement = "parallel" (random starts only): the random runs name
  # their placement (sequential unless given), the lattice runs take the example without the line
  grep -v '^ *placement *=' "$lq" >"$cf"
  [ "$init" = random ] && pl=(--set system.init.placement=\"${5:-sequential}\")
  rm -rf "$d"; mkdir -p "$d"
  ( cd "$d" && [ -n "${6:-}" ] && export OMP_NUM_THREADS=$6
    date +%s.%N >t0 &&
    TRIBODY_TIMES=1 TB_INIT_PAR_STATS=1 "$OLDPWD/$bin" run "$cf" "${pl[@]}" --set system.particles=$n --set system.box=$(box $n) \
      --set system.init.type=\"$init\" --set solver.backend=$BE --set solver.deterministic=true \
      --set integrator.steps=$k --set output.thermo=\"th.csv\" --set output.thermo_every=100 \
      --set output.trajectory=\"tr.xyz\" --set output.trajectory_every=1000 \
      --set output.checkpoint=\"ck.tbck\" --set output.checkpoint_every=1000 $xs >out.txt 2>err.txt
    echo $? >rc; date +%s.%N >t1 )
}
# the phases of run tags $@ side by side (seconds), and the measure's set-up
table() {
  python3 - "$W" "$@" <<'PY' | tee -a "$S"
import re, sys
W, tags = sys.argv[1], sys.argv[2:]
rows = [('exec', 'process start to cmd_run (exec, MPI init)'), ('config', 'configuration'),
        ('plain', 'placement: plain candidates'), ('vbuild', 'placement: voxel list build'),
        ('split', 'placement: voxel splits (kept + refused)'), ('draws', 'placement: draws from the list'),
        ('init_parallel', 'placement: parallel (init_par.c)'),
        ('lattice', 'positions (lattice, or random without list)'), ('velocities', 'velocities'),
        ('select', 'integrator, observables, backend choice'), ('backend_create', 'backend creation'),
        ('first_evaluation', 'lists + first evaluation + fetch'), ('check_start', 'check of the start'),
        ('open_outputs', 'outputs checked, locked, opened'), ('step0_thermo', 'step-0 thermo row'),
        ('step0_trajectory', 'step-0 trajectory frame'), ('step0_observables', 'step-0 observables'),
        ('steps', '[stepping: the steps]'), ('checkpoint', '[stepping: final checkpoint write]'),
        ('summary', 'summary'), ('finish', 'finish: close files, backend destroy, free'),
        ('exit', 'process exit')]
def phases(tag):
    d = f'{W}/su_{tag}'
    t0, t1 = float(open(d + '/t0').read()), float(open(d + '/t1').read())
    marks = [(l.split()[1], float(l.split()[2])) for l in open(d + '/err.txt') if l.startswith('tribody-time: ')]
    m = re.search(r'in ([0-9.e+-]+) s', open(d + '/out.txt').read())
    acc, prev = {}, t0
    voxels = any(n == 'init_voxel_build' for n, _ in marks)
    key = {'start': 'exec', 'init_plain': 'plain', 'init_voxel_build': 'vbuild', 'init_voxel_split': 'split',
           'init_voxel_split_refused': 'split', 'init_draws': 'draws', 'init_velocities': 'velocities',
           'state': 'velocities', 'integrator': 'select', 'observables': 'select', 'backend_select': 'select',
           'check_outputs': 'open_outputs', 'stepping_start': 'step0_observables',
           'checkpoint_begin': 'steps', 'stepping': 'steps',
           'init_positions': 'draws' if voxels else 'lattice'}
    for name, t in marks:
        k = key.get(name, name); acc[k] = acc.get(k, 0.0) + t - prev; prev = t
    acc['exit'] = t1 - prev
    return acc, t1 - t0, float(m.group(1)) if m else float('nan'), bool(marks)
res = {t: phases(t) for t in tags}
print('%-44s' % 'phase [s]' + ''.join('%14s' % t for t in tags))
for k, label in rows:
    print('%-44s' % label + ''.join('%14s' % ('%.3f' % res[t][0][k] if res[t][3] and k in res[t][0] else '-') for t in tags))
print('%-44s' % 'process wall' + ''.join('%14.3f' % res[t][1] for t in tags))
print('%-44s' % 'set-up = wall - stepping printed (issue 23)' + ''.join('%14.3f' % (res[t][1] - res[t][2]) for t in tags))
PY
}
same() { # tag_a tag_b what
  local a="$W/su_$1" b="$W/su_$2" f bad=""
  for f in th.csv tr.xyz ck.tbck; do cmp -s "$a/$f" "$b/$f" || bad="$bad $f"; done
  if [ "$(cat "$a/rc" 2>/dev/null)" = 0 ] && [ "$(cat "$b/rc" 2>/dev/null)" = 0 ] && [ -z "$bad" ]; then
    say "PASS: $3: $1 = $2 bitwise (thermo, trajectory with the step-0 positions and velocities, checkpoint: $(stat -c %s "$b/tr.xyz") + $(stat -c %s "$b/ck.tbck") bytes)"
  else say "FAIL: $3: $1 and $2 differ:${bad:- (exit $(cat "$a/rc" 2>/dev/null) / $(cat "$b/rc" 2>/dev/null))} ($(tail -n 1 "$b/err.txt"))"; fi
}
for spec in "random:$nr" "lattice:$nl"; do
  init=${spec%%:*}; n=${spec##*:}
  say "== set-up of a $k-step run, $init start, n = $n ($BE, deterministic, $(nproc) cores)"
  tags=""
  [ -n "$BASE" ] && { one_run "$BASE" base_$init $n $init; tags="$tags base_$init"; }
  one_run "$B" new_$init $n $init; tags="$tags new_$init"
  [ -n "$P" ] && { one_run "$P" prev_$init $n $init; tags="$tags prev_$init"; }
  table $tags
  [ -n "$P" ] && same prev_$init new_$init "$init n=$n, main's binary vs new"
  [ -n "$BASE" ] && same base_$init new_$init "$init n=$n, main + marks vs new"
  if [ "$init" = random ]; then # the parallel placement: all cores, then one thread
    one_run "$B" par_random $n random parallel; one_run "$B" par1_random $n random parallel 1
    table new_random par_random par1_random
    for t in par_random par1_random; do say "  $t: $(grep -h 'parallel placement' "$W/su_$t/err.txt" | sed 's/^tribody: //')"; done
    same par1_random par_random "random n=$n, placement parallel, OMP_NUM_THREADS=1 vs $(nproc) threads"
    python3 - "$W" <<'PY' | while read -r l; do say "$l"; done
import sys
W = sys.argv[1]
def setup(t):
    import re
    d = f'{W}/su_{t}'
    t0, t1 = float(open(d + '/t0').read()), float(open(d + '/t1').read())
    m = re.search(r'in ([0-9.e+-]+) s', open(d + '/out.txt').read())
    return t1 - t0 - float(m.group(1)) if m else float('nan')
s = setup('par_random')
print(('PASS' if s <= 3.0 else 'FAIL') + f': set-up of the random start with placement parallel {s:.2f} s <= 3 s (issue 23; sequential {setup("new_random"):.2f} s)')
PY
  fi
  rm -f "$W"/su_*/tr.xyz "$W"/su_*/ck.tbck # 200 MB a run at 10^6: the logs keep the rest
done
