// The competitions' page: the staff's form to create one, where the page has it.

import { start as wireCreateForm } from "../competition-create.js";

wireCreateForm();
