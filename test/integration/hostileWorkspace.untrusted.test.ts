// Hostile workspace (docs/reliability.md, category 4), Restricted Mode: see hostileWorkspaceCase.ts.
import { hostileWorkspaceSuite } from './hostileWorkspaceCase';

hostileWorkspaceSuite(false);
