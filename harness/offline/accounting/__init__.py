"""Word accounting of a request against its finished spec, and the editable draft spec (app.toml)."""
