// The pure half of the write guard (src/core/workspace/writeRules.ts):
// which paths no write may reach, which files get a warning in Apply's diff, and the walk that
// finds a symbolic link in any component of a path right before a write (a fake file system).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { checkNoLinks, protectedArea, toolConfigKind, type PathKind } from '../../../../src/core/workspace/writeRules';

describe('core/workspace/writeRules', () => {
  describe('protectedArea: .git, .vscode and workspace files are never written', () => {
    it('refuses .vscode and .git at any depth, in any case, and Windows aliases of them', () => {
      const cases: [string, string][] = [
        ['.vscode/settings.json', 'vscode'],
        ['.vscode/tasks.json', 'vscode'],
        ['sub/.vscode/launch.json', 'vscode'],
        ['.VSCode/settings.json', 'vscode'],
        ['.vscode./settings.json', 'vscode'],
        ['.vscode::$INDEX_ALLOCATION/tasks.json', 'vscode'],
        ['.vscode', 'vscode'],
        ['.git/hooks/pre-commit', 'git'],
        ['pkg\\.git\\config', 'git'],
        ['.GIT/config', 'git'],
        ['team.code-workspace', 'workspaceFile'],
        ['sub/App.Code-Workspace', 'workspaceFile'],
      ];
      for (const [p, area] of cases) assert.equal(protectedArea(p), area, p);
    });

    it('folds names the way file systems do: case, 8.3 short names, ignorable code points, trailing dots and spaces', () => {
      // each spelling opens .vscode, .git or a workspace file on NTFS (upcase table, short names,
      // trailing dots and spaces dropped) or HFS+ (ignorable code points dropped)
      const cases: [string, string][] = [
        // case, including letters whose upper case is ASCII on NTFS's upcase table
        ['.VsCoDe/settings.json', 'vscode'],
        ['.v\u017Fcode/settings.json', 'vscode'], // long s
        ['.g\u0131t/config', 'git'], // dotless i
        ['.GIT/HOOKS/pre-commit', 'git'],
        // Windows short names
        ['VSCODE~1/settings.json', 'vscode'],
        ['vscode~1/tasks.json', 'vscode'],
        ['VSCODE~2/launch.json', 'vscode'],
        ['VSCOD~10/settings.json', 'vscode'],
        ['VS1A2B~1/tasks.json', 'vscode'], // the hashed form after four collisions
        ['sub/VSCODE~1/settings.json', 'vscode'],
        ['GIT~1/config', 'git'],
        ['git~2/hooks/pre-commit', 'git'],
        ['pkg\\GIT~1\\config', 'git'],
        ['VSCODE~1./settings.json', 'vscode'],
        ['VSCODE~1::$INDEX_ALLOCATION/settings.json', 'vscode'],
        ['TEAM~1.COD', 'workspaceFile'],
        ['sub/teamco~2.cod', 'workspaceFile'],
        // ignorable code points (HFS+ drops them; a name shown with them looks the same)
        ['.vs\u200Dcode/settings.json', 'vscode'], // zero-width joiner
        ['\uFEFF.vscode/settings.json', 'vscode'], // BOM
        ['.vscode\u200C/tasks.json', 'vscode'], // zero-width non-joiner
        ['.v\u200Bscode/settings.json', 'vscode'], // zero-width space
        ['.vscode\u00AD/settings.json', 'vscode'], // soft hyphen
        ['.v\u034Fscode/settings.json', 'vscode'], // combining grapheme joiner
        ['.vscode\u2060/settings.json', 'vscode'], // word joiner
        ['.vscode\uFE0F/settings.json', 'vscode'], // variation selector
        ['\u202E.vscode/settings.json', 'vscode'], // right-to-left override
        ['.vscode\u{E0001}/settings.json', 'vscode'], // language tag
        ['.g\u200Dit/config', 'git'],
        ['\uFEFF.git/hooks/pre-commit', 'git'],
        ['.git\u180E/config', 'git'], // Mongolian vowel separator
        ['.git\u2066/config', 'git'], // bidi isolate
        ['team.code\u200B-workspace', 'workspaceFile'],
        // trailing dots and spaces, and all of it at once
        ['.vscode. ./settings.json', 'vscode'],
        ['.vscode  /settings.json', 'vscode'],
        ['.git . ./config', 'git'],
        ['team.code-workspace. ', 'workspaceFile'],
        ['\u200BVSCODE~1 ./settings.json', 'vscode'],
        ['.V\u200D\u017FCODE\uFEFF. /tasks.json', 'vscode'],
      ];
      const missed = cases.filter(([p, area]) => protectedArea(p) !== area).map(([p]) => JSON.stringify(p));
      assert.deepEqual(missed, [], `${missed.length} of ${cases.length} spellings not refused`);
    });

    it('folds short names only where they can stand for a protected name', () => {
      for (const p of [
        'VSCODE~1.TXT', // the short name of .vscode.txt, a file
        'SRC~1/a.ts',
        'BACKUP~1/x.json',
        'GITHUB~1/x.md',
        'notes~1.md',
        'README~1',
        'a~b/c.ts',
        'docs/a\u200Bb.md',
        'git-tools/run.sh',
      ]) {
        assert.equal(protectedArea(p), undefined, p);
      }
    });

    it('lets ordinary files and look-alike names through', () => {
      for (const p of [
        'src/a.ts',
        'innocent.json',
        'vscode/settings.json',
        '.vscodeignore',
        '.gitignore',
        '.github/workflows/ci.yml',
        'code-workspace.md',
        'docs/.git-notes',
        '',
      ]) {
        assert.equal(protectedArea(p), undefined, p);
      }
    });
  });

  describe('toolConfigKind: files that configure tools, tasks, CI or packages', () => {
    it('names the kind of each such file', () => {
      const cases: [string, string][] = [
        ['.vscode/settings.json', 'editor'],
        ['.vscode/extensions.json', 'editor'],
        ['x.code-workspace', 'editor'],
        ['.github/workflows/ci.yml', 'ci'],
        ['.github/workflows/nested/release.yaml', 'ci'],
        ['.gitlab-ci.yml', 'ci'],
        ['Jenkinsfile', 'ci'],
        ['.circleci/config.yml', 'ci'],
        ['package.json', 'packages'],
        ['packages/app/package.json', 'packages'],
        ['.npmrc', 'packages'],
        ['.yarnrc.yml', 'packages'],
        ['pyproject.toml', 'packages'],
        ['requirements-dev.txt', 'packages'],
        ['Cargo.toml', 'packages'],
        ['.cargo/config.toml', 'packages'],
        ['Makefile', 'build'],
        ['Dockerfile', 'build'],
        ['eslint.config.mjs', 'build'],
        ['.husky/pre-commit', 'hooks'],
        ['.devcontainer/devcontainer.json', 'hooks'],
        ['.pre-commit-config.yaml', 'hooks'],
      ];
      for (const [p, kind] of cases) assert.equal(toolConfigKind(p), kind, p);
    });

    it('leaves source files, docs and data alone', () => {
      for (const p of [
        'src/index.ts',
        'README.md',
        'data/package.json.md',
        'workflows/ci.yml',
        'src/makefile.ts',
        'config.json',
        'test/fixtures/settings.json',
        '',
      ]) {
        assert.equal(toolConfigKind(p), undefined, p);
      }
    });
  });

  describe('checkNoLinks: every component checked without following links', () => {
    const fake = (entries: Record<string, PathKind>) => {
      const asked: string[] = [];
      const kindOf = async (p: string): Promise<PathKind> => {
        asked.push(p);
        return entries[p] ?? 'missing';
      };
      return { kindOf, asked };
    };
    const join = (a: string, b: string) => path.posix.join(a, b);

    it('passes a path of real folders and a file, and one whose tail does not exist yet', async () => {
      const { kindOf } = fake({ '/ws/src': 'directory', '/ws/src/a.ts': 'file' });
      assert.deepEqual(await checkNoLinks('/ws', 'src/a.ts', kindOf, join), { ok: true, existing: 2 });
      assert.deepEqual(await checkNoLinks('/ws', 'src/new/deeper/b.ts', kindOf, join), { ok: true, existing: 1 });
    });

    it('fails at a link in the last component (innocent.json -> .vscode/settings.json)', async () => {
      const { kindOf } = fake({ '/ws/innocent.json': 'link' });
      assert.deepEqual(await checkNoLinks('/ws', 'innocent.json', kindOf, join), { ok: false, cause: 'link', at: 'innocent.json' });
    });

    it('fails at a link in a parent (cfg -> .vscode, later/ swapped for a link) and asks nothing below it', async () => {
      const { kindOf, asked } = fake({ '/ws/a': 'directory', '/ws/a/cfg': 'link' });
      assert.deepEqual(await checkNoLinks('/ws', 'a/cfg/tasks.json', kindOf, join), { ok: false, cause: 'link', at: 'a/cfg' });
      assert.deepEqual(asked, ['/ws/a', '/ws/a/cfg']);
    });

    it('fails when a parent is a file', async () => {
      const { kindOf } = fake({ '/ws/f': 'file' });
      assert.deepEqual(await checkNoLinks('/ws', 'f/x.ts', kindOf, join), { ok: false, cause: 'notDirectory', at: 'f' });
    });

    it('ignores . and empty segments and takes \\ separators', async () => {
      const { kindOf } = fake({ '/ws/d': 'directory', '/ws/d/l': 'link' });
      assert.deepEqual(await checkNoLinks('/ws', './d//l\\x', kindOf, join), { ok: false, cause: 'link', at: 'd/l' });
    });
  });
});
