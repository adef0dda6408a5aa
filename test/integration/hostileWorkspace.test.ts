// Hostile workspace (docs/reliability.md, category 4), trusted workspace: see hostileWorkspaceCase.ts.
import { hostileWorkspaceSuite } from './hostileWorkspaceCase';

hostileWorkspaceSuite(true);
