// Suite 4 "hostile workspace", trusted workspace: see hostileWorkspaceCase.ts.
import { hostileWorkspaceSuite } from './hostileWorkspaceCase';

hostileWorkspaceSuite(true);
