import assert from 'node:assert/strict';
import { shellSkeleton, shouldWrap } from '../../../../../src/core/agents/hooks/shouldWrap';
import { frontCommandLine, wrapperCommandLine } from '../../../../../src/core/agents/hooks/wrapperCommand';
import { compileExcludePatterns } from '../../../../../src/core/terminal/excludePatterns';

function reason(command: string): string {
  const decision = shouldWrap(command);
  return decision.wrap ? 'wrap' : decision.reason;
}

function expect(cases: Record<string, string>): void {
  for (const [command, expected] of Object.entries(cases)) assert.equal(reason(command), expected, command);
}

describe('which shell commands a hook wraps', () => {
  it('wraps ordinary commands, pipelines, lists and here-documents', () => {
    expect({
      'npm test': 'wrap',
      'make -j4 2>&1': 'wrap',
      'cargo build --release 2>&1 | grep -E "error|warning"': 'wrap',
      'cd packages/app && npm run build': 'wrap',
      'git status; git diff --stat': 'wrap',
      'seq 1 200000': 'wrap',
      'echo "a > b" && echo \'c & d\'': 'wrap',
      'node -e "console.log(1)"': 'wrap',
      'python3 -m pytest -q': 'wrap',
      'python3 script.py': 'wrap',
      'git commit -m "fix: the thing"': 'wrap',
      'git commit -am wip': 'wrap',
      'git commit --amend --no-edit': 'wrap',
      'git log --oneline -20': 'wrap',
      'ssh build-host make test': 'wrap',
      'ssh -p 2222 host "uptime"': 'wrap',
      'docker run --rm alpine echo hi': 'wrap',
      'ls >&2': 'wrap',
      'cmd 2>/tmp/errors.log': 'wrap',
      'cat <<EOF | sh\necho "> not a redirect &"\nEOF': 'wrap',
      'npm test # runs > 100 tests &': 'wrap',
      '[ -f a ] && echo yes': 'wrap',
    });
  });

  it('leaves interactive commands alone', () => {
    expect({
      'vim src/a.ts': 'interactive',
      '/usr/bin/less build.log': 'interactive',
      'git log | less': 'interactive',
      top: 'interactive',
      'watch -n1 date': 'interactive',
      'ssh build-host': 'interactive',
      'ssh -i ~/.ssh/key user@host': 'interactive',
      'git commit': 'interactive',
      'git commit -a': 'interactive',
      'git rebase -i HEAD~3': 'interactive',
      'git add -p': 'interactive',
      python3: 'interactive',
      node: 'interactive',
      'sudo vim /etc/hosts': 'interactive',
      'EDITOR=nano crontab -e && nano x': 'interactive',
      'docker run -it ubuntu bash': 'interactive',
      'kubectl exec -ti pod -- sh': 'interactive',
      'tmux new -s work': 'interactive',
    });
  });

  it('leaves commands that already send their output elsewhere alone', () => {
    expect({
      'make > build.log': 'redirected',
      'make >build.log 2>&1': 'redirected',
      'make >> build.log': 'redirected',
      'make &> build.log': 'redirected',
      'make &>> build.log': 'redirected',
      'make 1> out.txt': 'redirected',
      'make >| out.txt': 'redirected',
      'make 2>&1 | tee build.log': 'redirected',
      'make | /usr/bin/tee -a build.log': 'redirected',
      'cat <<EOF > config.yml\nkey: value\nEOF': 'redirected',
    });
  });

  it('leaves background jobs alone', () => {
    expect({
      'npm run dev &': 'background',
      'sleep 100 & echo started': 'background',
      'nohup ./server': 'background',
      './server & disown': 'background',
      'setsid ./daemon': 'background',
    });
  });

  it('leaves commands the shared exclude list matches alone, and uses a list given instead', () => {
    expect({
      env: 'excluded',
      printenv: 'excluded',
      'gcloud auth print-access-token': 'excluded',
      'cat .env': 'excluded',
      'kubectl get secret db -o yaml': 'excluded',
    });
    const custom = compileExcludePatterns(['^make\\b']).patterns;
    assert.deepEqual(shouldWrap('make test', custom), { wrap: false, reason: 'excluded' });
    assert.deepEqual(shouldWrap('env', custom), { wrap: true });
  });

  it('never wraps a command twice (the Node line or the front), nor an empty one', () => {
    const launch = {
      node: '/usr/bin/node',
      cli: "/x/it's/cli.js",
      store: '/s',
      agent: 'codex',
      previewChars: 6000,
    } as const;
    const wrapped = wrapperCommandLine(launch, "echo 'a'");
    const front = frontCommandLine(launch, "echo 'a'", "/s/bin/front-1'2.sh");
    expect({ [wrapped]: 'wrapped', [front]: 'wrapped', [` ${front}`]: 'wrapped', '': 'empty', '  \n ': 'empty' });
    assert.deepEqual(shouldWrap(`'/bin/sh' 'x.sh' 'a' 'b' 8000 -- 'npm test'`), { wrap: true });
  });

  it('reads quotes, escapes, here-documents and comments as the shell does', () => {
    assert.equal(shellSkeleton(`echo 'a > b' "c \\" > d" e\\>f`), "echo '' '' e_f");
    assert.equal(shellSkeleton('cat <<-"END" >out\n\tx > y\n\tEND\nls'), "cat <<'' >out\nls");
    assert.equal(shellSkeleton('ls # > x\npwd'), 'ls \npwd');
    assert.equal(shellSkeleton('echo $#'), 'echo $#');
  });
});
