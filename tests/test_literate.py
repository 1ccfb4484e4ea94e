"""The literate front: no internal wording on the pages, every "paper 00N" mention links to the bibliography, every
bibliography link has its anchor, and the paper map lists each seed paper's results (a hand-checked list)."""
import json, re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'
BIB, MAP = NBS/'98_bibliography.ipynb', NBS/'97_paper_map.ipynb'

def markdown(p):
    return [''.join(c['source']) for c in json.loads(p.read_text(encoding='utf-8'))['cells'] if c['cell_type'] == 'markdown']

def pages():
    "(name, markdown text) of every notebook's markdown cells and of README.md."
    out = [(p.name, md) for p in sorted(NBS.glob('*.ipynb')) for md in markdown(p)]
    return out + [('README.md', (ROOT/'README.md').read_text(encoding='utf-8'))]

# ---- no internal wording ------------------------------------------------------------------------------------------

_re_internal = re.compile(r"\bissues?\b|\bthe user's design\b", re.I)

def internal_wording(text):
    return [m.group(0) for m in _re_internal.finditer(text)]

def test_internal_wording_detector_can_fail():
    assert internal_wording('Issue 11 asks for a table') and internal_wording("the issue's target")
    assert not internal_wording('we emit an OrderGridWarning; tissue; issuer')

def test_no_page_speaks_of_issues():
    bad = [f'{name}: {w!r}' for name, md in pages() for w in internal_wording(md)]
    assert not bad, 'internal wording on the site or in README:\n' + '\n'.join(bad)

# ---- paper mentions are links --------------------------------------------------------------------------------------

_re_mention = re.compile(r'\b[Pp]apers? 00[0-4]\b')
_re_link = re.compile(r'\[[^\]]*\]\([^)]*\)')
_re_skip = re.compile(r'```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]+\$', re.S)

def unlinked_mentions(md):
    "'paper 00N' mentions outside links, code, math and headings."
    out = []
    for line in _re_skip.sub(' ', md).split('\n'):
        if re.match(r'\s*#{1,6}\s', line): continue             # headings: the cell's text below carries the link
        out += _re_mention.findall(_re_link.sub(' ', line))
    return out

def test_mention_detector_can_fail():
    assert unlinked_mentions('as paper 004 shows') == ['paper 004']
    assert not unlinked_mentions('as [paper 004](98_bibliography.ipynb#paper-004) shows; `paper001_dp_to_rdp`')

def test_every_paper_mention_is_a_link():
    bad = [f'{name}: {m}' for name, md in pages() if name != BIB.name for m in unlinked_mentions(md)]
    assert not bad, '"paper 00N" mentions without a link to the bibliography:\n' + '\n'.join(bad)

def test_paper_links_go_to_the_bibliography():
    bad = [f'{name}: {l}' for name, md in pages() for l in _re_link.findall(md)
           if _re_mention.search(l.split('](')[0]) and '98_bibliography.ipynb#paper-00' not in l]
    assert not bad, '\n'.join(bad)

# ---- bibliography anchors ------------------------------------------------------------------------------------------

def bib_anchors():
    return set(re.findall(r'<a id="([\w.-]+)"></a>', '\n'.join(markdown(BIB))))

def test_bibliography_has_the_five_papers():
    assert {f'paper-00{i}' for i in range(5)} <= bib_anchors()

def test_every_bibliography_link_has_its_anchor():
    used = {(name, a) for name, md in pages() for a in re.findall(r'98_bibliography\.ipynb#([\w.-]+)\)', md)}
    assert used, 'no page links to the bibliography'
    missing = sorted(f'{name}: #{a}' for name, a in used if a not in bib_anchors())
    assert not missing, 'links to bibliography anchors that do not exist:\n' + '\n'.join(missing)

# ---- the paper map -------------------------------------------------------------------------------------------------

# Hand-checked against /work/shared/papers (the extractions): the numbered results of each paper that a reader
# would look up. The map must list each, in the section of its paper.
EXPECTED = {
    '000': ['Theorem 1', 'Theorem 2', 'Remark 3', 'Theorem 4', 'Theorem 5', 'Theorem 6', 'Theorem 7', 'Lemma 8',
            'Figure 1', 'Figure 2', 'Figure 3', 'Figure 4'],
    '001': ['Theorem 1', 'Theorem 2', 'Theorem 3', 'Theorem 4', 'Lemma 4.1', 'Theorem 5', 'Theorem 6', 'Section 5',
            'Figure 1', 'Figure 2', 'Figure 3', 'Figure 4', 'Figure 5'],
    '002': ['Lemma 1', 'Lemma 2.2', 'Theorem 2.3', 'Theorem 3', 'Corollary 3.1', 'Theorem 5', 'Corollary 5.2',
            'Theorem 8', 'Theorem 9', 'Theorem 13', 'Theorem 15', 'Theorem 19', 'Lemma 21', 'Theorem 22', 'Theorem 24',
            'Algorithm 1', 'Algorithm 2', 'Algorithm 3', 'Table 1', 'Table 2', 'Tables 3–8', 'Figures 1–2', 'Figures 3–11'],
    '003': ['Algorithm 1', 'Lemma 3.1', 'Algorithm 2', 'Theorem 3.2', 'Lemma 3.3', 'Algorithm 3', 'Theorem 4.1',
            'Algorithm 4', 'Theorem 4.3', 'Lemma 4.4', 'Lemma 4.6', 'Theorem 4.7', 'Theorem 4.8', 'Algorithm 5',
            'Theorem 4.9', 'Table 1', 'Lemma A.1', 'Claim A.8', 'Lemma B.6', 'Algorithm 6', 'Theorem C.3'],
    '004': ['Lemma 1', 'Lemma 2', 'Theorem 1', 'Corollary 1', 'Algorithm 1', 'Theorem 2', 'Eq. 17', 'Theorem 3',
            'Conjecture 1', 'Table 1', 'Figure 1'],
}
STATUSES = {'reproduced', 'corrected', 'refuted', 'not applicable', 'not covered'}

def map_sections():
    "paper number -> {result label: (status, where)} from the map's tables."
    out = {}
    for md in markdown(MAP):
        m = re.match(r'##\s+(00[0-4])\b', md)
        if not m: continue
        rows = {}
        for line in md.split('\n'):
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if len(cells) == 5 and cells[2].startswith('**'):
                rows[cells[0]] = (cells[2].strip('*'), cells[4])
        out[m.group(1)] = rows
    return out

def test_map_lists_every_expected_result():
    secs = map_sections()
    assert set(secs) == set(EXPECTED)
    missing = [f'paper {k}: {lab}' for k, labs in EXPECTED.items() for lab in labs
               if not any(r == lab or r.startswith(lab + ' (') or r.startswith(lab + ',') for r in secs[k])]
    assert not missing, 'results missing from the paper map:\n' + '\n'.join(missing)

def test_map_statuses_and_links():
    for k, rows in map_sections().items():
        for lab, (status, where) in rows.items():
            assert status in STATUSES, (k, lab, status)
            if status in ('reproduced', 'corrected', 'refuted'):
                assert re.search(r'\]\(\d+[a-z]*_\w+\.ipynb', where), f'paper {k}, {lab}: {status} without a link'

def heading_ids(stem):
    "Site anchors of a notebook's headings (docutils ids, as Sphinx makes them) and its explicit <a id> anchors."
    from docutils.nodes import make_id
    ids = set()
    for md in markdown(NBS/f'{stem}.ipynb'):
        ids |= {make_id(re.sub(r'[`*$]', '', h)) for h in re.findall(r'^#{1,6}\s+(.*)$', md, re.M)}
        ids |= set(re.findall(r'<a id="([\w.-]+)"', md))
    return ids

def doc_anchors(stem):
    "show_doc anchors of a notebook's functions and classes (`shuffled_delta_mc` -> `shuffled-delta-mc`)."
    cells = json.loads((NBS/f'{stem}.ipynb').read_text(encoding='utf-8'))['cells']
    code = '\n'.join(''.join(c['source']) for c in cells if c['cell_type'] == 'code')
    return {n.lower().replace('_', '-') for n in re.findall(r'^(?:def|class)\s+(\w+)', code, re.M)}

def test_map_links_point_at_sections_that_exist():
    pytest.importorskip('docutils')
    links = {(s, a) for md in markdown(MAP) for s, a in re.findall(r'\]\((\d+[a-z]*_\w+)\.ipynb#([\w.-]+)\)', md)}
    assert links
    bad = sorted(f'{s}#{a}' for s, a in links
                 if not (NBS/f'{s}.ipynb').exists() or a not in heading_ids(s) | doc_anchors(s))
    assert not bad, 'paper map links to missing notebooks or sections:\n' + '\n'.join(bad)
