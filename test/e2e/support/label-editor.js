#!/usr/bin/env node
// A non-interactive KUBE_EDITOR: adds the label edited=yes to the object kubectl opened.
const fs = require('fs');
const yaml = require('js-yaml');
const file = process.argv[process.argv.length - 1];
const text = fs.readFileSync(file, 'utf8');
const body = text.split('\n').filter((l) => !l.startsWith('#')).join('\n');
const obj = yaml.load(body);
obj.metadata.labels = { ...(obj.metadata.labels || {}), edited: 'yes' };
fs.writeFileSync(file, yaml.dump(obj));
