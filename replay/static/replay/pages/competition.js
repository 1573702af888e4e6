// A competition's page: its standings, live, and the staff's forms where the page has them.

import { start as followStandings } from "../standings.js";
import { start as wireStaffForms } from "../competition-staff.js";

followStandings();
wireStaffForms();
