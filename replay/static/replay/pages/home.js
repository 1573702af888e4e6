// The home page: its "Live now", kept up to date.

import { start } from "../live-now.js";

start();
