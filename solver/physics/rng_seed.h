/* rng_seed.h — the seeds of the integrators' random streams (the Langevin thermostat's noise,
 * the barostat's): each a hash of system.seed with a constant of its own (splitmix64, Steele,
 * Lea, Flood 2014), so that the streams differ from one another and from init.c's, and the
 * noise is not a function of the initial positions or velocities. */
#ifndef TB_RNG_SEED_H
#define TB_RNG_SEED_H

/* The 32-bit GSL seed of the stream `salt` of system.seed `seed`. */
static inline unsigned long rng_stream_seed(unsigned long seed, unsigned long long salt)
{
    unsigned long long x = (unsigned long long)seed ^ salt;
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (unsigned long)((x ^ (x >> 32)) & 0xffffffffULL);
}

#endif
