// A competition's hall: every table with its match, live, and staff's "Call next".

import { start } from "../hall.js";

start();
