"""The site: rendering entries to Markdown and the MkDocs integration."""
