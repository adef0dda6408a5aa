// Suite 4 "hostile workspace", Restricted Mode: see hostileWorkspaceCase.ts.
import { hostileWorkspaceSuite } from './hostileWorkspaceCase';

hostileWorkspaceSuite(false);
