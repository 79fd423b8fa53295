// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { splitPolicy } from './PrivacyModal';

describe('privacy policy title shows once', () => {
  it('a leading heading becomes the title and leaves the body', () => {
    expect(splitPolicy('<h3>Privacy policy</h3><p>We keep data.</p>')).toEqual({ title: 'Privacy policy', html: '<p>We keep data.</p>' });
    expect(splitPolicy('\n  <h1> 隐私政策 </h1><p>正文</p>').title).toBe('隐私政策');
  });
  it('no leading heading: no title taken, the body kept', () => {
    expect(splitPolicy('<p>Intro</p><h3>Later</h3>')).toEqual({ title: null, html: '<p>Intro</p><h3>Later</h3>' });
    expect(splitPolicy('Plain <h3>x</h3>').title).toBeNull();
    expect(splitPolicy('')).toEqual({ title: null, html: '' });
  });
  it('the HTML is sanitised', () => {
    expect(splitPolicy('<h2>T<script>alert(1)</script></h2><p onclick="x()">b</p>')).toEqual({ title: 'T', html: '<p>b</p>' });
  });
});
