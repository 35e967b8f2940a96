# scripts/gpu-check.d/sw-lst.sh — scripts/gpu-check's mode `sw-lst`: the fixed costs of a step at 1e5
# atoms of Stillinger-Weber silicon (issue 24, branch h24lst): the lists' build with one host wait
# (TB_NBR_BUILD=2, the default; 1: the build before, two waits) and larger blocks for few atoms per
# cell (TB_NBR_MINBLOCK, 128; 32: the blocks before), and a step's small kernels fused
# (TB_STEP_FUSE=2, the default: the accumulators zeroed by the kick-drift, the closing kick in the
# forces' last kernel; 1: before). Sourced by scripts/gpu-check (B, W, S, OUT, say in scope);
# build/tribody-prev (or $TB_PREV) is the binary before. In order of what matters, each part with
# its own time limit:
#   · bitwise: deterministic evaluations (sw_si, sw_gan, the crystal of 97336 atoms; double, mixed)
#     and 200-step deterministic runs of the crystal (thermo, checkpoint) prev = new, also with
#     TB_NBR_SPEC=2 (every rebuild a rollback: the fused kick again), TB_NBR_BUILD=1 and
#     TB_STEP_FUSE=1; a 200-step liquid run (ATM, n 4000, mixed) with TB_NBR_SPEC=2 = prev;
#     the rows' checksum of the first build (TB_NBR_PHASES=1) equal in prev and in every build
#   · bench --sw, mixed, n 1e5 .. 1e7: new, prev, before (TB_NBR_BUILD=1 TB_STEP_FUSE=1); at 97336
#     the pieces one by one and new / prev again; double at 1e5 and 1e6; the build's phases
#   · a real run of the crystal (1000 NVE steps), prev and new, twice
#   · bench --liquid --n 32768,1000000 mixed, prev and new; the build's phases at 1e6
# GPU_CHECK_BACKEND=cpu: a dry run of the logic without a GPU (small n, few steps).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; exit 1; }
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_flat_table, sw_flat_phases, sw_bits
if [ "$BE" = cpu ]; then NS=512,4096; M=8; ST=20; RS=20; DS=10; CPUF=--cpu; LQ=2048,4000; LS=2; NL=2048; N1=4096
else NS=97336,287496,1000000,10000000; M=23; ST=300; RS=300; DS=200; CPUF=; LQ=32768,1000000; LS=50; NL=4000; N1=97336; fi
TL="timeout ${SW_LST_PART:-120}" # no part may take the whole call
sw_crystal $M $RS # $W/si.data, $W/si.cfg, n
sw_bits TB_NBR_SPEC=2 TB_NBR_BUILD=1 TB_STEP_FUSE=1 TB_NBR_MINBLOCK=32

say "== the lists' build at $N1 (TB_NBR_PHASES=1, bench --sw mixed, 20 steps): phases, ms, and the first build's rows checksum"
for v in prev:: new:: b1:TB_NBR_BUILD=1 mb32:TB_NBR_MINBLOCK=32; do
  tag=${v%%:*}; envs=${v#*:}; envs=${envs%:}; bin=$B; [ $tag = prev ] && bin=$P
  env TB_NBR_PHASES=1 $envs $TL "$bin" bench --sw $CPUF --n $N1 --precisions mixed --steps 20 >"$W/ph_$tag.txt" 2>&1
done
python3 - "$W" prev new b1 mb32 <<'PY' | tee -a "$S"
import os, re, sys
w = sys.argv[1]; first = {}
for tag in sys.argv[2:]:
    L = [l for l in open(os.path.join(w, "ph_%s.txt" % tag)) if l.startswith("nbr build")]
    if not L:
        print("FAIL: %s: no build lines" % tag); continue
    ph = [[float(x) for x in re.search(r"cells ([0-9.]+) count ([0-9.]+) scan ([0-9.]+) fill ([0-9.]+) sort ([0-9.]+) total ([0-9.]+)", l).groups()] for l in L[1:] or L]
    avg = [sum(c) / len(ph) for c in zip(*ph)]
    first[tag] = re.search(r"rows hash ([0-9a-f]+)", L[0]).group(1)
    blk = re.search(r"block (\d+)", L[0]).group(1)
    print("%-5s %d builds, block %s, mean ms: cells %.3f count %.3f scan+wait %.3f fill %.3f sort %.3f total %.3f; first rows hash %s" % (
          tag, len(L), blk, *avg, first[tag]))
ok = len(set(first.values())) == 1 and len(first) == len(sys.argv) - 2
print("%s: the first build's rows checksum equal in %s" % ("PASS" if ok else "FAIL", ", ".join(first)))
PY

say "== bench --sw on $BE, mixed, n $NS, $ST steps: us per atom-step"
variants="new:: prev:: before:TB_NBR_BUILD=1,TB_STEP_FUSE=1"
small="b1:TB_NBR_BUILD=1 mb32:TB_NBR_MINBLOCK=32 fuse1:TB_STEP_FUSE=1 new2:: prev2::"
dbl="dnew:: dprev::"
for v in $variants $small $dbl; do
  tag=${v%%:*}; envs=${v#*:}; envs=${envs%:}; bin=$B; case $tag in prev*|dprev) bin=$P ;; esac
  ns=$NS; pr=mixed; case " $small " in *" $v "*) ns=$N1 ;; esac
  case $tag in d*) ns=$N1,$([ "$BE" = cpu ] && echo 4096 || echo 1000000); pr=double ;; esac
  env $(echo "$envs" | tr ',' ' ') $TL "$bin" bench --sw $CPUF --n $ns --precisions $pr --steps $ST \
    --csv "$W/flat_$tag.csv" >"$W/flat_$tag.txt" 2>&1 || say "FAIL: bench --sw ($tag): $(tail -n 1 "$W/flat_$tag.txt")"
done
sw_flat_table $variants $small $dbl
sw_flat_phases new prev before b1 mb32 fuse1 new2 prev2 dnew dprev # the per-phase line of the smallest point (ms per step)

RL=$((RS * 10 / 3)) # 1000 steps: the run's time is printed to 3 digits (h24lst's first call: 300)
say "== a run of the $n-atom crystal, $RL NVE steps (thermo every 100), mixed, prev and new twice"
for bin in $P "$B" $P "$B"; do
  tag=$([ "$bin" = "$B" ] && echo new || echo prev)
  ( cd "$W" && $TL "$(abs "$bin")" run si.cfg --set solver.precision=mixed --set integrator.steps=$RL --set output.thermo=\"thr_$tag.csv\" >run_$tag.txt 2>&1 )
  python3 - "$W/run_$tag.txt" $RL $n $tag <<'PY' | tee -a "$S"
import re, sys
txt = open(sys.argv[1]).read(); k = int(sys.argv[2]); n = int(sys.argv[3])
m = re.search(r'in ([0-9.e+-]+) s', txt); b = re.search(r'built (\d+) times', txt)
if not m:
    print("FAIL: run %s: %s" % (sys.argv[4], txt.strip().splitlines()[-1:])); sys.exit()
ms = 1e3 * float(m.group(1)) / k
print("%-5s run %.4f ms/step (%.5f us/atom-step, lists built %s times)" % (sys.argv[4], ms, 1e3 * ms / n, b.group(1) if b else "?"))
PY
done

say "== bench --liquid (ATM), mixed, n $LQ, $LS steps x 2: prev and new; the build's phases at ${LQ##*,}"
sw_liquid_bench
for v in prev:: new::; do
  tag=${v%%:*}; envs=${v#*:}; envs=${envs%:}; bin=$B; [ $tag = prev ] && bin=$P
  env TB_NBR_PHASES=1 $envs $TL "$bin" bench --liquid $CPUF --n ${LQ##*,} --precisions mixed --steps 3 --repeat 1 >"$W/lph_$tag.txt" 2>&1
  grep '^nbr build' "$W/lph_$tag.txt" | head -n 2 | sed "s/^/$tag /" | tee -a "$S"
done
rm -f "$W"/*.xyz "$W"/*.tbck* "$W"/si.data # the logs stay small
