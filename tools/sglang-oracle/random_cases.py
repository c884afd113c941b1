"""Random launch commands for parse_oracle.py: options of any release
(exact, cut to a prefix, with underscores, with a stray letter), values
from their choices, ints or junk, "=" forms, "--". Seeded: the same list
every run.

usage: python3 random_cases.py N > cases.txt"""
import os
import sys
import json, random, shlex
random.seed(7)
d = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'flag_dumps.json')))
acts = d['actions']
opts = {}
for a in acts:
    for o in a['options']:
        if o.startswith('--') and a['kind'] not in ('help',):
            opts.setdefault(o, a)
names = sorted(opts)
junk = ['x', '1', '-1', '-x', '0x10', '1.5', '-.5', 'auto', 'bf16', 'fp8_e4m3', 'trtllm', 'flashmla_kv', 'decode', 'a b', '--', "it's", '', '1_0', 'True']
def value(a):
    r = random.random()
    if a['choices'] and r < 0.6:
        return random.choice(a['choices'])
    if a['type'] == 'int' and r < 0.8:
        return str(random.randint(-3, 100))
    return random.choice(junk)
def word_for(o):
    a = opts[o]
    r = random.random()
    name = o
    if r < 0.1 and len(o) > 5:
        name = o[:random.randint(3, len(o) - 1)]
    elif r < 0.15:
        name = o.replace('-', '_')
    elif r < 0.18:
        name = o + 'x'
    ws = []
    n = a['nargs']
    if n == 0:
        if random.random() < 0.1:
            return [name + '=' + value(a)]
        return [name]
    if random.random() < 0.3:
        return [name + '=' + value(a)]
    k = 1 if n in (None, '?') else random.randint(0, 3)
    if n == '?' and random.random() < 0.3: k = 0
    if random.random() < 0.05: k = 0
    return [name] + [value(a) for _ in range(k)]
out = []
for i in range(int(sys.argv[1])):
    ws = []
    for _ in range(random.randint(1, 5)):
        ws += word_for(random.choice(names))
    if random.random() < 0.05: ws.insert(random.randint(0, len(ws)), '--')
    out.append(' '.join(shlex.quote(w) for w in ws))
print('\n'.join(out))
