// Registers a module hook that appends every module URL the process loads to $CMS_TRACE_FILE
// (start-up tests: which files `cms --help` imports). Used with `node --import`.
import { register } from 'node:module';

register('./trace-loads-hooks.mjs', import.meta.url);
