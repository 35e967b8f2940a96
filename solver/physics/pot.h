/* pot.h — instantiates the shared kernel bodies for double (suffix _d) and float (_f).
 *
 * pot_atm_d/_f, pot_lj_d/_f, pot_sw2_d/_f, pot_sw_leg_d/_f, pot_sw3_legs_d/_f, pot_mic_d/_f, triplet_accumulate_d/_f, pair_accumulate_d/_f, and
 * the several-species bodies pot_lj_typed, triplet_accumulate_typed, pair_accumulate_typed.
 * The same text serves gcc (the CPU backend) and nvcc (the GPU kernels). */
#ifndef TB_POT_H
#define TB_POT_H

#include "solver/physics/pot_params.h"
#include "solver/physics/real.h"

#define TB_REAL double
#define TB_NAME(x) x##_d
#include "solver/physics/pot_atm.h"
#include "solver/physics/pot_lj.h"
#include "solver/physics/pot_sw.h"
#include "solver/physics/triplet.h"
#undef TB_REAL
#undef TB_NAME

#define TB_REAL float
#define TB_NAME(x) x##_f
#include "solver/physics/pot_atm.h"
#include "solver/physics/pot_lj.h"
#include "solver/physics/pot_sw.h"
#include "solver/physics/triplet.h"
#undef TB_REAL
#undef TB_NAME

#endif
