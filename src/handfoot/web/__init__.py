"""Hand and Foot in the browser: ``handfoot serve`` (see docs/web.md).

:func:`~handfoot.web.app.create_app` builds the site; needs the ``web`` extra
(``pip install 'handfoot[web]'``).
"""
