"""The HTTP API convention the black-box acceptance checks speak (harness/acceptance), stated once:
the workspace contract shows it to the planner and builder of a model-written app, and
docs/acceptance.md repeats it. An app the generator wrote must follow it; a model-written app
that does not has, for those requirements, only its plan's declared probes as the outside leg."""

# The account the runtime probe registers first (harness/offline/generator/probes.py): with roles
# it is the admin, and the black-box leg signs in with it to make its own first account admin.
PROBE_USER = {"username": "probe_user", "password": "probe-password-1"}

API_CONVENTION = """API convention (the harness's black-box acceptance checks call the running app this way; \
follow it so every requirement is checked from outside, not only by the plan's probes):
- Each entity's records live at /api/<plural> (lower case, words joined by "-"): POST creates (201, the
  record as JSON with its integer "id" and every field under the field's ident), GET lists (a JSON list;
  ?q= searches the text fields, ?<field>=<value> filters, ?<field>_min=/_max= bounds, ?sort=<field>&order=asc|desc;
  a query parameter the route does not take is 422 naming it, never ignored),
  GET/PUT/DELETE /api/<plural>/{id} read (200), change only the fields sent (200) and delete (204); an
  unknown id is 404. Invalid input (a wrong type or format, a missing required field, a reference to a
  missing record) is 422; a duplicate unique value and deleting a record others still refer to are 409.
- A child entity's body names its parent as "<parent name>_id" (the name in snake case: "class" ->
  "class_id"; with accounts an "owner" parent is "owner_item_id"); GET /api/<parent plural>/{id}/<plural>
  lists exactly that parent's records.
- An entity with a status: POST /api/<plural>/{id}/complete sets "status" to "done" (new records are
  "open"); a workflow's records start in its first state and move by PUT {"status": next}; a move the
  workflow does not allow is 409. Counts per status: GET /api/<plural>/counts; totals of amounts:
  GET /api/<plural>/totals; CSV: GET /api/<plural>/export.csv (a header row of field idents, "id" first).
- Auth: POST /api/auth/register {"username" (or "email"), "password"} → 201; POST /api/auth/login → 200
  {"token": ...}; GET /api/auth/me → the account; POST /api/auth/logout → 204, after which that token
  is 401 everywhere; data routes need "Authorization: Bearer <token>" (401 without) and another account's
  records answer 404 (its pages and forms neither show nor change them). Passwords are stored hashed,
  never as sent. GET /api/dashboard answers JSON counts.
- Records are kept in the SQLite file APP_DB_PATH names: stopped and started again on it, the app
  still has every account and record.
- Pages answer 200 HTML at their routes (with the bearer token when the app has accounts) and show the
  stored records."""
