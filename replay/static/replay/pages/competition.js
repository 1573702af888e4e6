// A competition's page: its standings, live, its brackets' lines and paths, and the staff's
// forms where the page has them.

import { start as followStandings } from "../standings.js";
import { start as wireStaffForms } from "../competition-staff.js";
import { start as drawBrackets } from "../bracket.js";

followStandings();
wireStaffForms();
drawBrackets();
