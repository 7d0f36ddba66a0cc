import { CATEGORY, FAMILY_ORDER } from "../catalog.js";
import {  } from "./state.js";
import { PeoplePhase } from "./people.js";

/** A phase of the demo company's generator (generate.ts): every job position's manager. */
export abstract class HierarchyPhase extends PeoplePhase {
  // ---------------------------------------------------------------- hierarchy

  /**
   * Heads: the founder of a department (employee i heads the i-th active department) or else its
   * first current member. Each person has at most one position today, so nobody heads two
   * departments. The manager of a position is the head of its department, or, for the head
   * themself (or a department without a head), the nearest head further up: managers always
   * sit strictly higher in the tree, so the hierarchy cannot loop.
   */
  protected assignManagers(): void {
    const heads = new Int32Array(this.departments.length).fill(-1);
    this.founders.forEach((dept, employee) => {
      if (this.currentDept[employee] === dept) heads[dept] = employee;
    });
    for (let employee = 0; employee < this.currentDept.length; employee++) {
      const dept = this.currentDept[employee]!;
      if (dept >= 0 && heads[dept] === -1) heads[dept] = employee;
    }
    heads.forEach((employee, dept) => {
      if (employee < 0) return;
      const info = this.departments[dept]!;
      info.record.managerId = String(employee + 1);
      const seat = this.positions[this.currentPosition[employee]!]!;
      seat.jobTitle = info.headTitle[0];
      seat.t9n = this.jobTitleTranslations(info.headTitle[0], info.headTitle[1]);
      const professionIndex = FAMILY_ORDER.indexOf(info.family);
      seat.jobQualificationId = String(professionIndex * 3 + 3);
      if (info.record.level <= 2) seat.occupationCategoryId = String(CATEGORY.leadership);
    });

    for (let p = 0; p < this.positions.length; p++) {
      const position = this.positions[p]!;
      const self = Number(position.employeeId) - 1;
      let dept = this.positionDept[p]!;
      let manager: number | null = null;
      while (dept >= 0) {
        const head = heads[dept]!;
        if (head >= 0 && head !== self) {
          manager = head;
          break;
        }
        dept = this.departments[dept]!.parent;
      }
      position.managerId = manager === null ? null : String(manager + 1);
    }
  }
}
