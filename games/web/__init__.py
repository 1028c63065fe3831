"""The table-side pages (server-rendered, with a little JavaScript for live feedback)."""
