// Writes Math.exp of tst_fdlibm_exp's arguments to stdout as raw little-endian doubles.
// Usage: node math_exp_bits.js COUNT SEED
'use strict';
const { expArguments } = require('./exp_arguments.js');

const count = Number(process.argv[2]);
const seed = Number(process.argv[3]);
const args = expArguments(count, seed);
const out = new Float64Array(count);
for (let i = 0; i < count; i++) out[i] = Math.exp(args[i]);
process.stdout.write(Buffer.from(out.buffer));
