// The console page: its script, started once the page is parsed (a module runs deferred).

import { start } from "../console.js";

start();
