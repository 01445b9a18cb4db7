/**
 * A small IEEE-style CSL style for the report's bibliography, written for Evidence Desk (the
 * citation-js bundle has APA and Harvard, not IEEE). It covers what a workspace source has: authors,
 * title, date; entries are numbered in the order the report names its sources (S1, S2…).
 * Form: [1] A. B. Author, C. Other, and D. Third, “Title,” Mar. 1, 2024.
 */
export const IEEE_STYLE_ID = 'evidence-desk-ieee';

export const IEEE_STYLE_XML = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0" default-locale="en-US">
  <info>
    <title>IEEE (Evidence Desk sources)</title>
    <id>${IEEE_STYLE_ID}</id>
    <category citation-format="numeric"/>
    <updated>2026-11-24T00:00:00+00:00</updated>
  </info>
  <macro name="author">
    <names variable="author">
      <name and="text" delimiter=", " delimiter-precedes-last="contextual" initialize-with=". "/>
    </names>
  </macro>
  <macro name="issued">
    <choose>
      <if variable="issued">
        <date variable="issued">
          <date-part name="month" form="short" suffix=" "/>
          <date-part name="day" suffix=", "/>
          <date-part name="year"/>
        </date>
      </if>
      <else>
        <text term="no date" form="short"/>
      </else>
    </choose>
  </macro>
  <citation>
    <layout prefix="[" suffix="]" delimiter=", ">
      <text variable="citation-number"/>
    </layout>
  </citation>
  <bibliography entry-spacing="0">
    <layout suffix=".">
      <text variable="citation-number" prefix="[" suffix="] "/>
      <group delimiter=", ">
        <text macro="author"/>
        <text variable="title" quotes="true"/>
        <text macro="issued"/>
      </group>
    </layout>
  </bibliography>
</style>
`;
