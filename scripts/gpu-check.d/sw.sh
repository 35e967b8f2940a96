# scripts/gpu-check.d/sw.sh — scripts/gpu-check's mode `sw`: Stillinger-Weber (issue 24). Sourced by scripts/gpu-check
# (its variables B, W, S, OUT and its say() are in scope); see its header for what it shows.
  # Stillinger-Weber (issue 24) on the GPU (gpu_sw.cu, one warp per centre over the full lists)
  # against the CPU double evaluation (cpu/sw_cpu.h, itself within 5e-15 of LAMMPS, test_sw.c):
  # tests/lammps/sw_si (Si.sw, diamond), sw_gan (GaN.sw, zincblende, two species) and sw_mw (mW
  # water, examples/mw.sw, 216 sites at 1 g/cm^3), every
  # precision, plain and deterministic (energy_rel and force_max_rel: double 1e-12, mixed and
  # single 1e-5); deterministic bitwise repeatability; tribody validate sw_gan on the GPU in
  # every precision; 100 NVE steps of sw_si GPU vs CPU in double (the last thermo row);
  # compute-sanitizer memcheck and racecheck of one mixed evaluation.
  BE=${GPU_CHECK_BACKEND:-gpu} # cpu: a dry run of this mode's logic on a machine without a GPU
  for case in sw_si sw_gan sw_mw; do
    c=tests/lammps/$case.cfg
    "$B" eval "$c" --set solver.backend=cpu --set solver.precision=double -o "$W/swref.xyz" >"$W/swref.txt" 2>&1 ||
      say "FAIL: sw $case: the CPU reference ($(tail -n 1 "$W/swref.txt"))"
    for p in double mixed single; do
      t=1e-5; [ $p = double ] && t=1e-12
      for det in false true; do
        rm -f "$W/swg.xyz"
        if "$B" eval "$c" --set solver.backend=$BE --set solver.precision=$p --set solver.deterministic=$det \
             -o "$W/swg.xyz" >"$W/swg.txt" 2>&1; then
          r=$(python3 scripts/xyzcmp.py "$W/swg.xyz" "$W/swref.xyz")
          ok=$(echo "$r" | awk -v t=$t '{print ($2 <= t && $4 <= t) ? "PASS" : "FAIL"}')
          say "$ok: sw $case $p deterministic=$det vs CPU double: $r (tolerance $t)"
        else
          say "FAIL: sw $case $p deterministic=$det: $(tail -n 1 "$W/swg.txt")"
        fi
      done
    done
    for p in double mixed; do det_repeat "sw $case " $p "$c" --set solver.backend=$BE; done
  done
  "$B" validate tests/lammps/sw_gan.cfg --set solver.backend=$BE --precisions all >"$W/swval.txt" 2>&1
  say "$(grep -q ': PASS$' "$W/swval.txt" && echo PASS || echo FAIL): sw validate sw_gan on $BE: $(tail -n 1 "$W/swval.txt")"
  for be in $BE cpu; do
    "$B" run tests/lammps/sw_si.cfg --set solver.backend=$be --set output.thermo=\"$W/swth_$be.csv\" \
      --set output.thermo_every=100 >"$W/swrun_$be.txt" 2>&1
  done
  r=$(python3 - "$W/swth_$BE.csv" "$W/swth_cpu.csv" <<'PY'
import csv, sys
rows = [list(csv.DictReader(l for l in open(p) if not l.startswith('#')))[-1] for p in sys.argv[1:]]
d = max(abs(float(rows[0][k]) - float(rows[1][k])) / max(abs(float(rows[1][k])), 1e-300)
        for k in ("kinetic", "pair", "triplet"))
print("%s %.3e step %s" % ("PASS" if d <= 1e-9 else "FAIL", d, rows[0]["step"]))
PY
)
  say "${r%% *}: sw_si 100 NVE steps $BE vs CPU, double: worst relative difference of kinetic, pair, triplet ${r#* }"
  if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$B" eval tests/lammps/sw_gan.cfg --set solver.backend=$BE \
        --set solver.precision=mixed >"$W/swsan_$tool.txt" 2>&1
      say "$([ $? = 0 ] && echo PASS || echo FAIL): sw compute-sanitizer $tool (sw_gan, mixed)"
    done
  fi
