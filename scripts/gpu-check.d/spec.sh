# scripts/gpu-check.d/spec.sh — scripts/gpu-check's mode `spec` (issue 23): the speculative skin test of
# the neighbour lists (solver/gpu/gpu_spec.cu; docs/gpu.md, "A step's waits"). Sourced by scripts/gpu-check
# (B, W, S, say in scope). TB_NBR_SPEC: 0 the waiting path, 1 speculative (default), 2 speculative with every
# rebuild through a rollback.
#   · bitwise: deterministic 300-step liquid runs (examples/liquid.cfg, n = 4000 and 32768, mixed and double,
#     nve and langevin), TB_NBR_SPEC=0, 1, 2 of the new build and main's binary (build/tribody-prev or
#     $TB_PREV): cmp of the checkpoints and thermo files; the list builds of all four equal; the rollbacks
#     of 1 (rare) and 2 (every build after the first: builds - 1)
#   · restarts: 150 + restart + 150 = 300 under TB_NBR_SPEC=2 against the straight run (n = 4000, mixed,
#     nve and langevin)
#   · per step: run (thermo every 100, trajectory and checkpoint every 1000; 1000, 300, 100 steps) and
#     bench --liquid (40 steps) at 32768, 1e5, 1e6 mixed, TB_NBR_SPEC=0 against 1 of the same build (the
#     pieces of overhead.sh: run-vs-bench.inc)
#   · mpi (not by default): 2 ranks sharing the GPU (mpirun, TRIBODY_SHARE_GPUS=1): the deterministic runs of
#     n = 4000 mixed, nve and langevin, TB_NBR_SPEC=0, 1, 2 bitwise equal, and against one rank
#   · ab (not by default): run and bench per step alternating TB_NBR_SPEC=0 and 1, SPEC_REPS (3) times
#     each at 32768 and 1e5 (medians), bench alone at 1e6 (twice each)
# SPEC_PARTS (default "bitwise perf") picks the parts, SPEC_SIZES the sizes of the per-step part.
# GPU_CHECK_BACKEND=cpu: a dry run of the script at n = 2048 and a few steps (the CPU backend has no
# skin test in flight: its rows show no rollbacks). About 2.5 minutes on an H200.
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (main's binary)"; P=""; }
lq="$PWD/examples/liquid.cfg"
parts=${SPEC_PARTS:-bitwise perf}
if [ "$BE" = cpu ]; then sizes="2048"; bsizes="2048"; ks=10; steps_for() { echo 20; }; bflag="--cpu --repeat 1"; bsteps=2
else sizes=${SPEC_SIZES:-32768 100000 1000000}; bsizes="4000 32768"; ks=300; bflag="--repeat 3"; bsteps=40
  steps_for() { case $1 in 32768) echo 1000 ;; 100000) echo 300 ;; *) echo 100 ;; esac; }
fi
. scripts/gpu-check.d/run-vs-bench.inc # box, one_run, one_bench
# one deterministic run into $W/sp_TAG.{csv,tbck,txt}: bin tag n precision integrator steps [more --set ...]
spec_run() {
  local bin=$1 tag=$2 n=$3 p=$4 ig=$5 k=$6; shift 6
  local th=()
  [ "$ig" = langevin ] && th=(--set integrator.type=\"langevin\" --set integrator.temperature=1.0)
  ( cd "$W" && ${SPEC_LAUNCH:-} "$OLDPWD/$bin" run "$lq" --set system.particles=$n --set system.box=$(box $n) \
      --set solver.backend=$BE --set solver.deterministic=true --set solver.precision=$p "${th[@]}" \
      --set integrator.steps=$k --set output.thermo=\"sp_$tag.csv\" --set output.thermo_every=5 \
      --set output.trajectory=\"\" --set output.checkpoint=\"sp_$tag.tbck\" "$@" >sp_$tag.txt 2>&1 )
}
# "builds rollbacks early-waits" of a run's log (the skin test's line: TB_NBR_SPEC set)
spec_counts() {
  python3 - "$W/sp_$1.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
b = re.search(r'built (\d+) times', t); s = re.search(r'(\d+) rollbacks, (\d+) waits', t)
print(b.group(1) if b else '?', s.group(1) if s else '-', s.group(2) if s else '-')
PY
}
same() { cmp -s "$W/sp_$1.tbck" "$W/sp_$2.tbck" && cmp -s "$W/sp_$1.csv" "$W/sp_$2.csv"; }

if [[ " $parts " == *" bitwise "* ]]; then
  say "== bitwise: deterministic $ks-step liquid runs ($BE): TB_NBR_SPEC=0 (wait), 1 (speculate), 2 (every rebuild a rollback), main's binary"
  say "$(printf '%-7s %-6s %-8s %-26s %-26s %-26s %s' n prec integ 'wait: builds' 'spec: builds rb waits' 'forced: builds rb waits' verdict)"
  for n in $bsizes; do for p in mixed double; do for ig in nve langevin; do
    c=${n}_${p}_$ig
    for m in 0 1 2; do rm -f "$W/sp_${c}_$m".*; TB_NBR_SPEC=$m spec_run "$B" ${c}_$m $n $p $ig $ks; done
    [ -n "$P" ] && { rm -f "$W/sp_${c}_prev".*; spec_run "$P" ${c}_prev $n $p $ig $ks; }
    read -r b0 r0 w0 <<<"$(spec_counts ${c}_0)"; read -r b1 r1 w1 <<<"$(spec_counts ${c}_1)"
    read -r b2 r2 w2 <<<"$(spec_counts ${c}_2)"; read -r bp rp wp <<<"$( [ -n "$P" ] && spec_counts ${c}_prev || echo '? - -')"
    why=""
    [ -s "$W/sp_${c}_0.tbck" ] || why="$why; no checkpoint ($(tail -n 1 "$W/sp_${c}_0.txt"))"
    same ${c}_0 ${c}_1 || why="$why; spec != wait"
    same ${c}_0 ${c}_2 || why="$why; forced != wait"
    [ -z "$P" ] || same ${c}_0 ${c}_prev || why="$why; wait != main"
    [ "$b0" = "$b1" ] && [ "$b0" = "$b2" ] && { [ -z "$P" ] || [ "$b0" = "$bp" ]; } || why="$why; builds differ ($b0 $b1 $b2 main $bp)"
    if [ "$BE" = gpu ]; then # forced: every build after the first through a rollback
      [ "$r2" = "$((b2 - 1))" ] || why="$why; forced rollbacks $r2 != builds - 1"
      [ "$b2" -gt 1 ] 2>/dev/null || why="$why; no rebuild in $ks steps (nothing tested)"
    fi
    row=$(printf '%-7s %-6s %-8s %-26s %-26s %-26s' $n $p $ig "$b0" "$b1 $r1 $w1" "$b2 $r2 $w2")
    if [ -z "$why" ]; then say "PASS: $row bitwise = wait = main"; else say "FAIL: $row${why}"; fi
  done; done; done
  rn=${bsizes%% *}
  for ig in nve langevin; do
    c=r_$ig; rm -f "$W/sp_$c".*
    TB_NBR_SPEC=2 spec_run "$B" $c $rn mixed $ig $((ks / 2))
    TB_NBR_SPEC=2 spec_run "$B" $c $rn mixed $ig $ks --restart sp_$c.tbck
    if [ -s "$W/sp_$c.tbck" ] && same ${rn}_mixed_${ig}_0 $c; then
      say "PASS: n=$rn mixed $ig TB_NBR_SPEC=2: $((ks / 2)) + restart + $((ks / 2)) = $ks bitwise (checkpoint and thermo)"
    else say "FAIL: n=$rn mixed $ig restart under TB_NBR_SPEC=2 differs ($(tail -n 1 "$W/sp_$c.txt"))"; fi
  done
fi

if [[ " $parts " == *" perf "* ]]; then
  say "== run vs bench --liquid per step ($BE, mixed), TB_NBR_SPEC=0 (wait) against 1 (speculate); set-up = process wall - stepping"
  say "$(printf '%-5s %8s %10s %10s %7s %9s %12s %9s %s' path n run_ms bench_ms ratio setup_s builds_r/b non-force 'run: rollbacks waits')"
  for n in $sizes; do
    for m in 0 1; do
      read -r rm su rb <<<"$(TB_NBR_SPEC=$m one_run "$B" $n mixed $(steps_for $n))"
      rs=$(grep -o '[0-9]* rollbacks, [0-9]* waits' "$W/run_o.txt" | tr -d ',' | awk '{print $1, $3}')
      read -r bm bf bb <<<"$(TB_NBR_SPEC=$m one_bench "$B" $n mixed $bsteps)"
      r=$(python3 -c "print('%.3f' % ($rm / $bm))" 2>/dev/null || echo nan)
      nf=$(python3 -c "print('%.1f%%' % (100 * (1 - $bf / $bm)))" 2>/dev/null || echo nan)
      say "$(printf '%-5s %8s %10s %10s %7s %9s %12s %9s %s' "$([ $m = 0 ] && echo wait || echo spec)" $n $rm $bm $r $su "$rb/$bb" $nf "${rs:--}")"
    done
  done
fi

if [[ " $parts " == *" mpi "* ]]; then
  rn=${bsizes%% *}
  say "== 2 ranks on one GPU (TRIBODY_SHARE_GPUS=1): deterministic $ks-step runs, n = $rn mixed"
  for ig in nve langevin; do
    c=${rn}_mixed_$ig; why=""
    [ -s "$W/sp_${c}_0.tbck" ] || TB_NBR_SPEC=0 spec_run "$B" ${c}_0 $rn mixed $ig $ks # one rank
    for m in 0 1 2; do
      rm -f "$W/sp_mpi_${c}_$m".*
      TB_NBR_SPEC=$m TRIBODY_SHARE_GPUS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        SPEC_LAUNCH="mpirun -q --bind-to none -np 2" spec_run "$B" mpi_${c}_$m $rn mixed $ig $ks
    done
    read -r b0 r0 w0 <<<"$(spec_counts mpi_${c}_0)"; read -r b1 r1 w1 <<<"$(spec_counts mpi_${c}_1)"
    read -r b2 r2 w2 <<<"$(spec_counts mpi_${c}_2)"
    [ -s "$W/sp_mpi_${c}_0.tbck" ] || why="$why; no checkpoint ($(tail -n 1 "$W/sp_mpi_${c}_0.txt"))"
    same mpi_${c}_0 mpi_${c}_1 || why="$why; spec != wait"
    same mpi_${c}_0 mpi_${c}_2 || why="$why; forced != wait"
    [ "$b0" = "$b1" ] && [ "$b0" = "$b2" ] || why="$why; builds differ ($b0 $b1 $b2)"
    one=$(same mpi_${c}_0 ${c}_0 && echo "= one rank" || echo "differs from one rank")
    row="2 ranks $c: builds $b0; spec: rollbacks $r1 waits $w1; forced: rollbacks $r2"
    if [ -z "$why" ]; then say "PASS: $row; wait = spec = forced bitwise ($one)"; else say "FAIL: $row$why"; fi
  done
fi

if [[ " $parts " == *" ab "* ]]; then
  reps=${SPEC_REPS:-3}
  say "== A/B: ms per step alternating TB_NBR_SPEC=0 (wait) and 1 (spec), $reps times each; median (all)"
  med() { python3 -c "import statistics, sys; v = [float(x) for x in sys.argv[1:]]; print('%.4g' % statistics.median(v))" "$@"; }
  for n in ${SPEC_AB_SIZES:-32768 100000}; do
    declare -A R=() Q=()
    for rep in $(seq $reps); do for m in 0 1; do
      read -r rm su rb <<<"$(TB_NBR_SPEC=$m one_run "$B" $n mixed $(steps_for $n))"
      read -r bm bf bb <<<"$(TB_NBR_SPEC=$m one_bench "$B" $n mixed $((n > 50000 ? 200 : 400)))"
      R[$m]="${R[$m]:-} $rm"; Q[$m]="${Q[$m]:-} $bm"
    done; done
    for m in 0 1; do
      say "n=$n $([ $m = 0 ] && echo wait || echo spec): run $(med ${R[$m]}) ms (${R[$m]# }), bench $(med ${Q[$m]}) ms (${Q[$m]# })"
    done
  done
  for n in ${SPEC_AB_BENCH:-1000000}; do
    declare -A Q=()
    for rep in 1 2; do for m in 0 1; do
      read -r bm bf bb <<<"$(TB_NBR_SPEC=$m one_bench "$B" $n mixed 40)"; Q[$m]="${Q[$m]:-} $bm"
    done; done
    say "n=$n bench: wait ${Q[0]# } ms, spec ${Q[1]# } ms"
  done
fi
