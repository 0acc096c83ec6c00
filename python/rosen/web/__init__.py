"""``rosen serve``: play and analyse Rosenkönig in a web page (the optional ``rosen[web]`` extra).

- :mod:`rosen.web.views` -- JSON views of positions and searches: public facts only (R14);
- :mod:`rosen.web.sessions` -- games against the engine and analyses, with their search threads;
- :mod:`rosen.web.app` -- the Starlette routes (the page and the JSON API, docs/web.md);
- ``static/`` -- the page itself: plain HTML, CSS and JavaScript that draw what the API sends.

Only :mod:`rosen.web.app` needs the web stack (Starlette); it is imported when the server starts.
"""
