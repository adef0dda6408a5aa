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
