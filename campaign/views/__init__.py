"""Views of the core app, one module per area; each view validates, calls a service, renders."""
