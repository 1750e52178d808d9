// The CLI's V8 setting (src/cli/v8Tiering.ts): the longer interrupt budget unless the user gives
// node one, or asks for V8's defaults.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

// Loaded with the opt-out set, so that loading it does not retune this test process's V8.
const saved = process.env.NEARDUP_V8_DEFAULTS;
process.env.NEARDUP_V8_DEFAULTS = '1';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cliV8Flags, CLI_INTERRUPT_BUDGET } = require('../../../../src/cli/process/v8Tiering') as typeof import('../../../../src/cli/process/v8Tiering');
if (saved === undefined) delete process.env.NEARDUP_V8_DEFAULTS;
else process.env.NEARDUP_V8_DEFAULTS = saved;

describe('the CLI\'s V8 tiering', () => {
  it('sets the longer interrupt budget by default', () => {
    assert.equal(cliV8Flags([], undefined, undefined), `--interrupt-budget=${CLI_INTERRUPT_BUDGET}`);
    assert.equal(cliV8Flags(['--enable-source-maps'], '--max-old-space-size=4096', undefined), `--interrupt-budget=${CLI_INTERRUPT_BUDGET}`);
    assert.ok(CLI_INTERRUPT_BUDGET > 67_584, "longer than V8's default");
  });

  it("keeps a budget given to node, in its arguments or NODE_OPTIONS, in either spelling", () => {
    assert.equal(cliV8Flags(['--interrupt-budget=5000'], undefined, undefined), undefined);
    assert.equal(cliV8Flags([], '--trace-warnings --interrupt_budget=5000', undefined), undefined);
    assert.equal(cliV8Flags(['--interrupt-budget'], undefined, undefined), undefined);
    // A flag that only starts the same way is not the budget.
    assert.equal(cliV8Flags(['--interrupt-budget-factor-for-feedback-allocation=8'], undefined, undefined), `--interrupt-budget=${CLI_INTERRUPT_BUDGET}`);
  });

  it("keeps V8's defaults with NEARDUP_V8_DEFAULTS=1", () => {
    assert.equal(cliV8Flags([], undefined, '1'), undefined);
    assert.equal(cliV8Flags([], undefined, '0'), `--interrupt-budget=${CLI_INTERRUPT_BUDGET}`);
  });

  it('is what the built CLI sets', () => {
    // The bundle, loaded as `neardup --version` would run it, sets the budget, once, and nothing else.
    const cli = path.join(__dirname, '../../../../dist/cli.js');
    const probe = `const v8=require('v8');const seen=[];const set=v8.setFlagsFromString;v8.setFlagsFromString=(f)=>{seen.push(f);return set(f)};` +
      `process.argv=[process.argv[0],${JSON.stringify(cli)},'--version'];require(${JSON.stringify(cli)});process.on('exit',()=>console.error('FLAGS '+JSON.stringify(seen)))`;
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NEARDUP_V8_DEFAULTS: '' } });
    assert.match(r.stderr, new RegExp(`FLAGS \\["--interrupt-budget=${CLI_INTERRUPT_BUDGET}"\\]`), r.stderr);
  });
});
