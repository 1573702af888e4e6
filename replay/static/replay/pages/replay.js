// The replay page: its script, started once the page is parsed (a module runs deferred).

import { start } from "../replay.js";

start();
