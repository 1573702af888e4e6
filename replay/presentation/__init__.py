"""Presentation: pure functions from a rendered state to what a person reads or sees.

- `sentences`: shots and rulings in words; `standings_words`: what a version changed.
- `drawing`: the table's SVG geometry (pins, balls, their legend).
- `compare`: two players side by side; `charts`: the score and average charts.
- `stage_words`: a competition's rounds, slots and matches' places in words.
- `consequence_words`: what a correction changes in the draw, in sentences.
- `sheet`: what a finished match's official sheet says; `sheet_pdf` draws it as a PDF.
- `refusals`: a refusal in the active language, from its code and parameters.

No database query and no request: each takes data and returns data. May import:
`matches` (its pure modules), `replay.models` for types, `replay.projections`. Not
`queries` (beside it), nor a layer above.
"""
