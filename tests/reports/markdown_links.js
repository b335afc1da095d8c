// Renders Markdown from stdin as GitHub would (CommonMark, HTML allowed,
// bare URLs linked) and prints, as JSON, the links, images and script or
// style elements the rendered HTML holds. usage: node markdown_links.js < FILE
const md = require('markdown-it')({html: true, linkify: true});
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const html = md.render(input);
  const count = (re) => (html.match(re) || []).length;
  process.stdout.write(JSON.stringify({
    links: count(/<a[\s>]/gi),
    images: count(/<img[\s>]/gi),
    scripts: count(/<(script|style|iframe)[\s>]/gi),
    html,
  }));
});
