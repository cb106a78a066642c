#!/usr/bin/env node
// Runs a TypeScript entry point of this workspace without a build step: swc transpiles on load
// (decorator metadata included, which Nest's injection needs) and tsconfig paths resolve the
// @exchange/* aliases. Usage: node scripts/run.js <file.ts> [args...]
const path = require('node:path');

const root = path.resolve(__dirname, '..');
process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || path.join(root, 'tsconfig.runtime.json');
require('@swc-node/register');

const entry = process.argv[2];
if (!entry) {
  console.error('usage: node scripts/run.js <entry.ts> [args...]');
  process.exit(2);
}
process.argv.splice(1, 2, path.resolve(entry));
require(path.resolve(entry));
