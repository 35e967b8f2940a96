# scripts/gpu-check.d/sw-bench.sh — scripts/gpu-check's mode `sw-bench`: Stillinger-Weber's speed and
# long-run energy on the GPU (issue 24). Sourced by scripts/gpu-check (its variables B, W, S, OUT and
# its say() are in scope); see its header for what it shows. GPU_CHECK_BACKEND=cpu: a dry run of the
# logic on a machine without a GPU, at small n and few steps.
  BE=${GPU_CHECK_BACKEND:-gpu}
  if [ "$BE" = cpu ]; then NS=512,4096; NM=4096; BSTEPS=50; CSTEPS=10000; CPUF=--cpu; else
    NS=1e5,110592,3e5,1e6,1e7; NM=1e6; BSTEPS=300; CSTEPS=100000; CPUF=; fi
  P=${TB_PREV:-build/tribody-prev} # the binary before a change, when there: its rows beside
  say "== centres per block (solver.threads 32, 96, 128, 160, 256): deterministic evaluations bitwise equal"
  for case in sw_si sw_gan sw_mw; do
    for p in double mixed; do
      same=1
      for t in 32 96 128 160 256; do
        rm -f "$W/swt_$t.xyz"
        "$B" eval tests/lammps/$case.cfg --set solver.backend=$BE --set solver.precision=$p \
          --set solver.deterministic=true --set solver.threads=$t -o "$W/swt_$t.xyz" >"$W/swt_$t.txt" 2>&1 || same=0
        [ $t = 32 ] || cmp -s "$W/swt_32.xyz" "$W/swt_$t.xyz" || same=0
      done
      say "$([ $same = 1 ] && echo PASS || echo FAIL): sw $case $p deterministic: solver.threads 96, 128, 160, 256 give threads 32's forces and energies bit for bit"
    done
  done
  if command -v compute-sanitizer >/dev/null 2>&1; then # 5 centres per block: 216 atoms leave a partial last block
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$B" eval tests/lammps/sw_mw.cfg --set solver.backend=$BE \
        --set solver.precision=double --set solver.threads=160 >"$W/swbsan_$tool.txt" 2>&1
      say "$([ $? = 0 ] && echo PASS || echo FAIL): sw compute-sanitizer $tool (sw_mw, 216 atoms, solver.threads 160: a partial last block)"
    done
  fi
  say "== bench --sw on $BE: n $NS, mixed and double, $BSTEPS steps (list rebuilds included); mixed deterministic at $NM"
  "$B" bench --sw $CPUF --n $NS --precisions mixed,double --steps $BSTEPS --csv "$W/swb.csv" 2>&1 | tee "$W/swb.txt" | grep -Ev '^ {10,}|per rank' | tee -a "$S"
  "$B" bench --sw $CPUF --n $NM --precisions mixed --steps $BSTEPS --set solver.deterministic=true \
    --csv "$W/swbd.csv" 2>&1 | tee "$W/swbd.txt" | grep -E '^ +[0-9]+ (mixed|double)' | sed 's/$/  (deterministic)/' | tee -a "$S"
  : >"$W/swbp.csv"
  if [ -x "$P" ]; then
    "$P" bench --sw $CPUF --n $NS --precisions mixed,double --steps $BSTEPS --csv "$W/swbp.csv" >"$W/swbp.txt" 2>&1
    grep -E '^ +[0-9]+ (mixed|double)' "$W/swbp.txt" | sed 's/$/  (before: '"$P"')/' | tee -a "$S"
  fi
  python3 - "$W/swb.csv" "$W/swbd.csv" "$BE" "$W/swbp.csv" <<'PY' | tee -a "$S"
import csv, math, sys
det = [r for r in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith('#'))]
plain = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#'))]
prev = [r for r in csv.DictReader(l for l in open(sys.argv[4]) if not l.startswith('#'))]
gpu = sys.argv[3] == "gpu"
for r in plain + det:
    T = float(r["temperature"])
    ok = math.isfinite(T) and 700 < T < 1500
    print("%s: sw bench n %s %s%s: T at the end %.0f K (700 .. 1500: finite, equipartitioned)" %
          ("PASS" if ok else "FAIL", r["n"], r["precision"], " deterministic" * (r in det), T))
target = {"mixed": 3e8, "double": 1e8}
for r in plain:
    if gpu and r["n"] == "1000000":
        rate = float(r["atom_steps_per_s"])
        print("%s: sw bench n 1e6 %s: %.3g atom-steps/s (issue 24's target >= %.0e)" %
              ("PASS" if rate >= target[r["precision"]] else "FAIL", r["precision"], rate,
               target[r["precision"]]))
for p in ("mixed", "double"):  # issue 24: flat from 1e5 to 1e7, within 15 % (the worst n / the best)
    us = {int(r["n"]): float(r["us_per_atom_step"]) for r in plain if r["precision"] == p}
    # the issue's range starts at 1e5: 110592 (8 x 24^3) is its first diamond; 97336 (8 x 23^3)
    # is just below it, so its ratio is printed too (a note, not the verdict)
    rng = {n: u for n, u in us.items() if n >= 100000 or not gpu}
    if len(rng) >= 2:
        ratio = max(rng.values()) / min(rng.values())
        print("%s: sw bench %s: cost per atom-step, the most / the least over n >= 1e5 = %.2f (flat: <= 1.15; %s)" %
              ("PASS" if ratio <= 1.15 or not gpu else "FAIL", p, ratio,
               ", ".join("%d: %.4g us" % (n, us[n]) for n in sorted(rng))))
    if gpu and len(us) > len(rng) >= 1:
        print("note: sw bench %s: the most / the least including %s = %.2f" % (
            p, ", ".join(str(n) for n in sorted(set(us) - set(rng))), max(us.values()) / min(us.values())))
for p in ("mixed", "double"):  # the binary before, beside: its flatness and the per-n ratio
    old = {int(r["n"]): float(r["us_per_atom_step"]) for r in prev if r["precision"] == p}
    if not old:
        continue
    new = {int(r["n"]): float(r["us_per_atom_step"]) for r in plain if r["precision"] == p}
    print("before -> after, %s, us per atom-step: " % p + ", ".join(
        "%d: %.4g -> %.4g (%.2fx)" % (n, old[n], new[n], old[n] / new[n]) for n in sorted(old) if n in new) +
        "; most / least before %.2f, after %.2f" % (max(old.values()) / min(old.values()),
                                                   max(new.values()) / min(new.values()) if new else float("nan")))
for r in plain:
    if float(r["gpu_gib"]) > 0:
        print("memory: n %s %s holds %.3f GiB of GPU memory (%.0f bytes per atom)" % (
            r["n"], r["precision"], float(r["gpu_gib"]), float(r["gpu_gib"]) * 2**30 / int(r["n"])))
PY
  say "== 10^5-step NVE energy conservation on $BE: 512 atoms of diamond Si from 2000 K (about 1000 K), dt 1 fs, double and mixed ($CSTEPS steps)"
  D=$(pwd)
  cat >"$W/swc.cfg" <<CFG
units = "metal";
system = { species = ( { name = "Si"; mass = 28.0855; } ); boundary = "periodic"; seed = 3;
  init = { type = "lammps"; file = "$D/examples/silicon.data"; temperature = 2000.0; }; };
potential = { sw = { file = "$D/examples/Si.sw"; }; };
integrator = { type = "nve"; dt = 0.001; steps = $CSTEPS; };
solver = { backend = "$BE"; };
output = { thermo = "swc.csv"; thermo_every = 1000; trajectory = ""; checkpoint = ""; };
CFG
  for p in double mixed; do
    t0=$SECONDS
    "$B" run "$W/swc.cfg" --set solver.precision=$p --set output.thermo=\"$W/swc_$p.csv\" >"$W/swc_$p.txt" 2>&1
    python3 - "$W/swc_$p.csv" $p "$((SECONDS - t0)) s" <<'PY' | tee -a "$S"
import csv, sys
r = [x for x in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#'))]
r = r[len(r) // 10:]  # from the perfect crystal at 2000 K: equipartition moves Verlet's O(dt^2)
                      # offset of E once (0.1 eV in 1 ps); the rows after the first 10 % only
t = [float(x["time"]) for x in r]; e = [float(x["total"]) for x in r]; T = [float(x["temperature"]) for x in r]
n = len(e); d = [x - e[0] for x in e]; m = sum(d) / n; tm = sum(t) / n
slope = sum((a - tm) * (b - m) for a, b in zip(t, d)) / sum((a - tm) ** 2 for a in t)
mx = max(abs(x) for x in d); E0 = abs(e[0]); drift = slope * (t[-1] - t[0])
lim = 2.5e-5 if sys.argv[2] == "double" else 1e-4
ok = mx <= lim * E0 and abs(drift) <= 5e-6 * E0 * (1 if sys.argv[2] == "double" else 4)
print("%s: sw NVE %s, steps %s .. %s: max |E - E0| %.3e eV = %.2e of |E0| (<= %.1e), least-squares "
      "drift %.3e eV over %.0f ps = %.2e of |E0|, mean T %.0f K; wall %s" % ("PASS" if ok else "FAIL",
      sys.argv[2], r[0]["step"], r[-1]["step"], mx, mx / E0, lim, drift, t[-1] - t[0], drift / E0,
      sum(T) / n, sys.argv[3]))
PY
  done
