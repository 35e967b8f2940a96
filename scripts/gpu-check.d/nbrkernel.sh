# scripts/gpu-check.d/nbrkernel.sh — scripts/gpu-check's mode `nbrkernel` (issue 23): the neighbour-list
# force kernel's tile loops (solver/gpu/gpu_nbr.cu, TB_NBR_KERNEL 0, 1, 2, 7, 8, 9, 18 (the ring walk,
# gpu_nbr_ring.cuh; 19 where cutoff_triple can cut; 23 its triplets in the other form: d_jk in float,
# the dot form in double); unset = 18, or 19 where
# cutoff_triple can cut; 9: the compacted slots, gpu_nbr_cmp.cuh, 7 in deterministic mode; docs/gpu-measured.md's
# "Measured: the ring walk" and "Measured: the row's O(m) part", gpu-measured-early.md's "Measured: the tile
# loop's instructions" and "Measured: compaction of the useful slots"), before and after in one call. Sourced by scripts/gpu-check (B, W, S, say in scope).
#   · accuracy: energies and forces of each loop x double, mixed against the CPU double evaluation at
#     n = 2048 (the liquid; with cutoff_triple 3.2; three species; short rows, ATM cutoff 1.6: 0 to ~15
#     entries, the ring's split chunks and its one-pair rows; long rows, 6.5: ~460 entries): PASS within
#     1e-13 (double) and 1e-6 (mixed), relative energy and largest force error
#   · bitwise: two deterministic evaluations per loop and precision (NBRK_DET_KS, default "1 2 7 8 9"),
#     each loop's equal to VAR 7's where NBRK_DET_SAME lists it (default "9": it takes VAR 7 there);
#     100 + restart + 100 = 200 steps of the default (cmp of the checkpoints; gpu-check fixes the run id);
#     racecheck and memcheck of the default and VAR 9 (NBRK_SAN_KS; n = 300, L = 7.2, ATM cutoffs
#     NBRK_SAN_CUTS, default 3.3 and 1.7)
#   · speed: bench --liquid of main's binary (build/tribody-prev or $TB_PREV), the tiles of 2026-11-25
#     (TB_NBR_KERNEL=7) and the default (the ring, 18), N = 32768, 1e5, 1e6, mixed and double; 1e7 mixed
#     (prev, new)
# NBRK_PARTS (default "accuracy bitwise speed") picks the parts, NBRK_KS (default "0 1 2 7 8 9 18 20 21 23")
# the accuracy part's loops, NBRK_BENCH (default "K7 default") the speed part's, NBRK_1E7=0 skips 1e7.
# GPU_CHECK_BACKEND=cpu: a dry run on a machine without a GPU (the CPU backend ignores TB_NBR_KERNEL:
# every line equals the reference). About 4 minutes on an H200.
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "no $P (main's binary): the speed part measures the new build only"; P=""; }
parts=${NBRK_PARTS:-accuracy bitwise speed}
nk="$W/nbrk.cfg"
cat >"$nk" <<CFG
system = { particles = 2048; seed = 9; boundary = "periodic"; box = 13.68;
  init = { type = "random"; min_distance = 0.85; temperature = 1.0; }; };
potential = { atm = { nu = 0.0703; cutoff = 4.5; }; lj = { cutoff = 2.5; }; };
integrator = { dt = 0.002; steps = 200; };
solver = { backend = "$BE"; skin = 0.3; };
output = { thermo = ""; trajectory = ""; checkpoint = ""; };
CFG
cat >"$W/nbrk_sp.cfg" <<CFG
system = { particles = 2048; boundary = "periodic"; box = 13.68; seed = 5;
  species = ( { name = "A"; mass = 1.0; }, { name = "B"; mass = 1.7; }, { name = "C"; mass = 0.6; } );
  init = { type = "random"; min_distance = 0.85; temperature = 0.6; composition = [0.5, 0.3, 0.2]; }; };
potential = {
  lj = { mix = "geometric";
    pairs = ( { species = ["A", "A"]; epsilon = 1.0; sigma = 1.0; cutoff = 2.5; },
              { species = ["B", "B"]; epsilon = 1.3; sigma = 0.92; cutoff = 2.9; },
              { species = ["C", "C"]; epsilon = 0.7; sigma = 1.1; cutoff = 2.2; },
              { species = ["A", "C"]; epsilon = 0.5; sigma = 1.05; cutoff = 2.0; } ); };
  atm = { cutoff = 4.5; triplets = ( { species = ["A", "A", "A"]; nu = 0.072; }, { species = ["A", "A", "B"]; nu = 0.03; },
      { species = ["A", "B", "C"]; nu = 0.11; }, { species = ["B", "B", "B"]; nu = 0.064; }, { species = ["C", "C", "C"]; nu = 0.05; } ); };
};
integrator = { dt = 0.002; steps = 100; };
solver = { backend = "$BE"; skin = 0.3; };
output = { thermo = ""; trajectory = ""; checkpoint = ""; };
CFG
if [[ " $parts " == *" accuracy "* ]]; then
  say "== nbr kernels against the CPU double evaluation (energy_rel force_max_rel force_rms_rel), n = 2048"
  for cs in "liquid:$nk" "cutoff_triple 3.2:$nk --set potential.atm.cutoff_triple=3.2" "three species:$W/nbrk_sp.cfg" \
            "short rows (ATM cutoff 1.6):$nk --set potential.atm.cutoff=1.6" "long rows (ATM cutoff 6.5):$nk --set potential.atm.cutoff=6.5"; do
    label=${cs%%:*}; c=${cs#*:}
    rm -f "$W/nbrk_ref.xyz"
    # shellcheck disable=SC2086 # c holds a file and --set arguments
    "$B" eval $c --set solver.backend=cpu --set solver.precision=double -o "$W/nbrk_ref.xyz" >"$W/nbrk_ref.txt" 2>&1 ||
      { say "FAIL: $label: CPU reference ($(tail -n 1 "$W/nbrk_ref.txt"))"; continue; }
    for k in ${NBRK_KS:-0 1 2 7 8 9 18 20 21 23}; do
      for p in double mixed; do
        rm -f "$W/nbrk_g.xyz"
        # shellcheck disable=SC2086
        if TB_NBR_KERNEL=$k "$B" eval $c --set solver.precision=$p -o "$W/nbrk_g.xyz" >"$W/nbrk_g.txt" 2>&1; then
          r=$(python3 scripts/xyzcmp.py "$W/nbrk_g.xyz" "$W/nbrk_ref.xyz")
          tol=$([ $p = double ] && echo 1e-13 || echo 1e-6)
          if awk -v t=$tol '{ exit !($2 <= t && $4 <= t) }' <<<"$r"; then say "PASS: K=$k $p $label: $r"
          else say "FAIL: K=$k $p $label: $r (beyond $tol)"; fi
        else say "FAIL: K=$k $p $label: $(tail -n 1 "$W/nbrk_g.txt")"; fi
      done
    done
  done
fi
if [[ " $parts " == *" bitwise "* ]]; then
  say "== nbr kernels: bitwise repeatable (deterministic), restarts and sanitizers of the default"
  for k in ${NBRK_DET_KS:-1 2 7 8 9 18 20 21}; do # 9 takes VAR 7 in deterministic mode (its atomics' order is the hardware's)
    for p in double mixed; do
      for r in 1 2; do
        rm -f "$W/nbrk_d$r.xyz"
        TB_NBR_KERNEL=$k "$B" eval "$nk" --set solver.deterministic=true --set solver.precision=$p -o "$W/nbrk_d$r.xyz" >/dev/null 2>&1
      done
      if [ -s "$W/nbrk_d1.xyz" ] && cmp -s "$W/nbrk_d1.xyz" "$W/nbrk_d2.xyz"; then say "PASS: K=$k $p deterministic bitwise repeatable"
      else say "FAIL: K=$k $p deterministic evaluations differ"; fi
      cp "$W/nbrk_d1.xyz" "$W/nbrk_det_${k}_$p.xyz" 2>/dev/null
      if [[ " ${NBRK_DET_SAME:-9} " == *" $k "* ]] && [ -s "$W/nbrk_det_7_$p.xyz" ]; then
        if cmp -s "$W/nbrk_det_7_$p.xyz" "$W/nbrk_det_${k}_$p.xyz"; then say "PASS: K=$k $p deterministic = K=7 bitwise"
        else say "FAIL: K=$k $p deterministic differs from K=7"; fi
      fi
    done
  done
  for p in double mixed; do
    ( cd "$W" && rm -f nbrk_a.tbck* nbrk_b.tbck*
      "$OLDPWD/$B" run nbrk.cfg --set solver.deterministic=true --set solver.precision=$p --set output.checkpoint=\"nbrk_a.tbck\" >nbrk_ra.txt 2>&1
      "$OLDPWD/$B" run nbrk.cfg --set solver.deterministic=true --set solver.precision=$p --set output.checkpoint=\"nbrk_b.tbck\" --set integrator.steps=100 >nbrk_rb.txt 2>&1
      "$OLDPWD/$B" run nbrk.cfg --set solver.deterministic=true --set solver.precision=$p --set output.checkpoint=\"nbrk_b.tbck\" --restart nbrk_b.tbck >nbrk_rc.txt 2>&1 )
    if [ -s "$W/nbrk_a.tbck" ] && cmp -s "$W/nbrk_a.tbck" "$W/nbrk_b.tbck"; then say "PASS: default $p: 200 steps = 100 + restart + 100, bitwise"
    else say "FAIL: default $p: the restarted run differs ($(tail -n 1 "$W/nbrk_rc.txt"))"; fi
  done
  if [ "$BE" = gpu ]; then
    for kv in ${NBRK_SAN_KS:-default 9}; do
      for p in double mixed; do
        for rc in ${NBRK_SAN_CUTS:-3.3 1.7}; do # rows of ~60 ATM entries; of 0 to ~15 (short rows)
          for tool in racecheck memcheck; do
            f="$W/nbrk_${tool}_${kv}_${p}_$rc.txt"
            if env $([ $kv != default ] && echo TB_NBR_KERNEL=$kv) compute-sanitizer --tool $tool --error-exitcode 3 "$B" eval "$nk" \
                 --set system.particles=300 --set system.box=7.2 --set potential.atm.cutoff=$rc --set solver.precision=$p \
                 -o - >"$f" 2>&1; then
              say "PASS: $tool K=$kv $p ATM cutoff $rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | head -1 | sed 's/=* *//')"
            else say "FAIL: $tool K=$kv $p ATM cutoff $rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rror' "$f" | head -2)"; fi
          done
        done
      done
    done
  fi
fi
if [[ " $parts " == *" speed "* ]]; then
  if [ "$BE" = cpu ]; then bn=2048; bflag="--cpu --repeat 1 --steps 2"; else bn=32768,100000,1000000; bflag="--repeat 3 --steps 10"; fi
  say "== bench --liquid --n $bn --precisions mixed,double ($bflag): ms/step, ms/force, triplets/s, in slots"
  nbrk_bench() { # label binary [VAR=value ...]
    local label=$1 bin=$2; shift 2
    # shellcheck disable=SC2086
    env "$@" "$bin" bench --liquid --n $bn --precisions mixed,double $bflag >"$W/nbrk_b_$label.txt" 2>&1
    awk -v l="$label" '$1 ~ /^[0-9]+$/ && $2 ~ /^(mixed|double)$/ && NF >= 9 {
      printf "%-8s %8s %-6s ms/step %9s ms/force %9s triplets/s %s in slots %s\n", l, $1, $2, $3, $5, $7, $8 }' \
      "$W/nbrk_b_$label.txt" | tee -a "$S"
  }
  [ -n "$P" ] && nbrk_bench prev "$P"
  for bk in ${NBRK_BENCH:-K7 default}; do
    if [ "$bk" = default ]; then nbrk_bench default "$B"; else nbrk_bench "$bk" "$B" TB_NBR_KERNEL=${bk#K}; fi
  done
  if [ "$BE" = gpu ] && [ "${NBRK_1E7:-1}" != 0 ]; then
    say "== 1e7 atoms, bench --liquid mixed (5 steps): ms/step, steps/s, ms/force"
    for bin in $P "$B"; do
      "$bin" bench --liquid --n 10000000 --precisions mixed --steps 5 --repeat 1 >"$W/nbrk_b7.txt" 2>&1
      awk -v l="$([ "$bin" = "$B" ] && echo new || echo prev)" '$1 == 10000000 && $2 == "mixed" {
        printf "%-5s n=1e7 mixed: %s ms/step (%.2f steps/s), %s ms/force\n", l, $3, 1000 / $3, $5 }' "$W/nbrk_b7.txt" | tee -a "$S"
    done
  fi
fi
